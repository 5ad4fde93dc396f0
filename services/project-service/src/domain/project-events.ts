import { randomUUID } from 'node:crypto';
import type { EventEnvelope, ProjectEventData, ProjectEventType } from '@tolk/contracts';

export const PRODUCER = 'project-service';

/** The envelope of one of this service's events (DESIGN §6), to be written to the outbox. */
export function projectEvent<T extends ProjectEventType>(
  type: T,
  data: ProjectEventData<T>,
  occurredAt: number,
): EventEnvelope {
  return { id: randomUUID(), type, occurredAt, producer: PRODUCER, data };
}
