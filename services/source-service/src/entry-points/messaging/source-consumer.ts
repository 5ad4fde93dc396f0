import { consumerOf, type EventConsumer } from '@tolk/bus';
import { sourceEventDataSchemas } from '@tolk/contracts';
import { projectEventEffects } from '@tolk/projects';
import type { ProjectSync } from '../../domain/project-sync.js';

/**
 * Consumes project events (the source locale, deletion) and translation baseline changes.
 * Each event applies once (handleOnce); data that does not parse is retried, then
 * dead-lettered, without blocking the queue.
 */
export function sourceConsumer(sync: ProjectSync): EventConsumer {
  return consumerOf({
    ...projectEventEffects(sync),
    TranslationBaselineChanged: (envelope) => {
      const data = sourceEventDataSchemas.TranslationBaselineChanged.parse(envelope.data);
      return (tx) => sync.baselineChanged(data.projectId, data.baselineVersion, data.sequence, tx);
    },
  });
}
