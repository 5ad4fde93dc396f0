import type { EventConsumer } from '@tolk/bus';
import { sourceEventDataSchemas, type EventEnvelope } from '@tolk/contracts';
import type { Queryable } from '@tolk/db';
import { PROJECT_EVENTS, projectEventEffect } from '@tolk/projects';
import type { Logger } from '@tolk/logger';
import type { LocaleSync } from '../../domain/locale-sync.js';

const CONSUMED = [...PROJECT_EVENTS, 'SourceChanged'] as const;
type Consumed = (typeof CONSUMED)[number];

type Effect = { apply: (tx: Queryable) => Promise<void>; sourceOf?: string };

/** The effect of one event, inside the transaction that records it as processed. */
function effectOf(envelope: EventEnvelope, sync: LocaleSync): Effect | undefined {
  const type = envelope.type as Consumed;
  switch (type) {
    case 'ProjectCreated':
    case 'ProjectDeleted': {
      const effect = projectEventEffect(envelope, sync);
      return effect && { apply: effect.apply };
    }
    case 'ProjectUpdated': {
      const effect = projectEventEffect(envelope, sync);
      // A changed plural-key setting or key rule leaves the counts stale; refreshing them is a no-op otherwise.
      return effect && { apply: effect.apply, sourceOf: effect.projectId };
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
export function localeConsumer(
  sync: LocaleSync,
  refresh: (projectId: string) => Promise<unknown>,
  logger: Logger,
): EventConsumer {
  // The project whose counts to refresh, by the event being handled.
  const sourceOf = new WeakMap<EventEnvelope, string>();
  return {
    eventTypes: CONSUMED,
    effectOf: (envelope) => {
      const effect = effectOf(envelope, sync);
      if (effect?.sourceOf !== undefined) sourceOf.set(envelope, effect.sourceOf);
      return effect?.apply;
    },
    async afterEach(envelope) {
      const projectId = sourceOf.get(envelope);
      if (projectId === undefined) return;
      await refresh(projectId).catch((err: unknown) =>
        logger.warn({ err, projectId }, 'refreshing locale counts failed; reads will'),
      );
    },
  };
}
