import { handleOnce, type Bus } from '@tolk/bus';
import { projectEventDataSchemas, sourceEventDataSchemas, type EventEnvelope } from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';
import type { Logger } from '@tolk/logger';
import type { LocaleSync } from '../../domain/locale-sync.js';

/** The durable queue of this service's consumer. */
export const LOCALE_QUEUE = 'locale-service';

const CONSUMED = ['ProjectCreated', 'ProjectUpdated', 'ProjectDeleted', 'SourceChanged'] as const;
type Consumed = (typeof CONSUMED)[number];

type Effect = { apply: (tx: Queryable) => Promise<void>; sourceOf?: string };

/** The effect of one event, inside the transaction that records it as processed. */
function effectOf(envelope: EventEnvelope, sync: LocaleSync): Effect | undefined {
  const type = envelope.type as Consumed;
  switch (type) {
    case 'ProjectCreated': {
      const data = projectEventDataSchemas.ProjectCreated.parse(envelope.data);
      const { projectId, sourceLocale, i18nextPlurals } = data;
      return {
        apply: (tx) =>
          sync.projectChanged(
            { projectId, sourceLocale, i18nextPlurals, updatedAt: envelope.occurredAt },
            tx,
          ),
      };
    }
    case 'ProjectUpdated': {
      const data = projectEventDataSchemas.ProjectUpdated.parse(envelope.data);
      const { projectId, sourceLocale } = data;
      const { i18nextPlurals } = data.settings;
      return {
        apply: (tx) =>
          sync.projectChanged(
            { projectId, sourceLocale, i18nextPlurals, updatedAt: envelope.occurredAt },
            tx,
          ),
        // A changed plural-key setting leaves the counts stale; refreshing them is a no-op otherwise.
        sourceOf: projectId,
      };
    }
    case 'ProjectDeleted': {
      const { projectId } = projectEventDataSchemas.ProjectDeleted.parse(envelope.data);
      return { apply: (tx) => sync.projectDeleted(projectId, tx) };
    }
    case 'SourceChanged': {
      const data = sourceEventDataSchemas.SourceChanged.parse(envelope.data);
      return {
        apply: async (tx) => {
          const change = { ...data, occurredAt: envelope.occurredAt };
          await sync.sourceChanged(change, tx);
        },
        sourceOf: data.projectId,
      };
    }
    default:
      return undefined;
  }
}

/**
 * Consumes project events and SourceChanged. Each event applies once (handleOnce); data that
 * does not parse is retried, then dead-lettered, without blocking the queue. After a source
 * change commits, the locales' counts are brought up to the new version (`refresh`); if that
 * fails (source-service away), the next read of the locales does it.
 */
export function subscribeLocaleConsumer(deps: {
  bus: Bus;
  db: Db;
  sync: LocaleSync;
  refresh: (projectId: string) => Promise<unknown>;
  logger: Logger;
  queue?: string;
}): Promise<void> {
  const queue = deps.queue ?? LOCALE_QUEUE;
  return deps.bus.subscribe({
    queue,
    eventTypes: [...CONSUMED],
    handler: async (envelope) => {
      const effect = effectOf(envelope, deps.sync);
      if (!effect) return;
      const applied = await handleOnce(deps.db, queue, envelope.id, effect.apply);
      deps.logger.debug({ eventType: envelope.type, eventId: envelope.id, applied }, 'event consumed');
      if (effect.sourceOf !== undefined) {
        await deps
          .refresh(effect.sourceOf)
          .catch((err: unknown) =>
            deps.logger.warn(
              { err, projectId: effect.sourceOf },
              'refreshing locale counts failed; reads will',
            ),
          );
      }
    },
  });
}
