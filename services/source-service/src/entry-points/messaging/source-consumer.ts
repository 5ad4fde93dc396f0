import type { EventConsumer } from '@tolk/bus';
import { sourceEventDataSchemas, type EventEnvelope } from '@tolk/contracts';
import type { Queryable } from '@tolk/db';
import { PROJECT_EVENTS, projectEventEffect } from '@tolk/projects';
import type { ProjectSync } from '../../domain/project-sync.js';

const CONSUMED = [...PROJECT_EVENTS, 'TranslationBaselineChanged'] as const;
type Consumed = (typeof CONSUMED)[number];

/** The effect of one event, inside the transaction that records it as processed. */
function effectOf(
  envelope: EventEnvelope,
  sync: ProjectSync,
): ((tx: Queryable) => Promise<void>) | undefined {
  const type = envelope.type as Consumed;
  switch (type) {
    case 'ProjectCreated':
    case 'ProjectUpdated':
    case 'ProjectDeleted':
      return projectEventEffect(envelope, sync)?.apply;
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
