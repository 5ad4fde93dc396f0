import type { EventConsumer } from '@tolk/bus';
import { projectEventDataSchemas, sourceEventDataSchemas, type EventEnvelope } from '@tolk/contracts';
import type { Queryable } from '@tolk/db';
import type { ProjectSync } from '../../domain/project-sync.js';

const CONSUMED = [
  'ProjectCreated',
  'ProjectUpdated',
  'ProjectDeleted',
  'TranslationBaselineChanged',
] as const;
type Consumed = (typeof CONSUMED)[number];

/** The effect of one event, inside the transaction that records it as processed. */
function effectOf(
  envelope: EventEnvelope,
  sync: ProjectSync,
): ((tx: Queryable) => Promise<void>) | undefined {
  const type = envelope.type as Consumed;
  switch (type) {
    case 'ProjectCreated':
    case 'ProjectUpdated': {
      // Each type against its own contract: data that breaks it is poison, even when the source
      // locale alone would parse.
      const { projectId, sourceLocale } = projectEventDataSchemas[type].parse(envelope.data);
      // project-service's updatedAt is the event's occurredAt: it orders the updates.
      return (tx) => sync.projectChanged({ projectId, sourceLocale, updatedAt: envelope.occurredAt }, tx);
    }
    case 'ProjectDeleted': {
      const { projectId } = projectEventDataSchemas.ProjectDeleted.parse(envelope.data);
      return (tx) => sync.projectDeleted(projectId, tx);
    }
    case 'TranslationBaselineChanged': {
      const data = sourceEventDataSchemas.TranslationBaselineChanged.parse(envelope.data);
      return (tx) => sync.baselineChanged(data.projectId, data.baselineVersion, data.sequence, tx);
    }
    default:
      return undefined;
  }
}

/**
 * Consumes project events (the source locale, deletion) and translation baseline changes.
 * Each event applies once (handleOnce); data that does not parse is retried, then
 * dead-lettered, without blocking the queue.
 */
export function sourceConsumer(sync: ProjectSync): EventConsumer {
  return { eventTypes: CONSUMED, effectOf: (envelope) => effectOf(envelope, sync) };
}
