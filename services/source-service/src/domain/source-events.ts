import { randomUUID } from 'node:crypto';
import type { EventEnvelope, SourceEventData } from '@tolk/contracts';

export const PRODUCER = 'source-service';

/** The envelope of a SourceChanged event (DESIGN §6), to be written to the outbox. */
export function sourceChangedEvent(
  data: SourceEventData<'SourceChanged'>,
  occurredAt: number,
): EventEnvelope {
  return { id: randomUUID(), type: 'SourceChanged', occurredAt, producer: PRODUCER, data };
}
