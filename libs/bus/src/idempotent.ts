import type { EventEnvelope, EventType } from '@tolk/contracts';
import { assertSchemaName, type Db, type Queryable } from '@tolk/db';
import type { Logger } from '@tolk/logger';
import type { Bus } from './bus.js';

/**
 * Applies an event's effect at most once per consumer: the "processed" record and the effect
 * commit in one transaction. Returns false when this consumer had already processed the event.
 * A concurrent duplicate waits on the first one's row lock and then skips; if `fn` throws,
 * nothing is recorded and the redelivery runs it again.
 */
export function handleOnce(
  db: Db,
  consumer: string,
  eventId: string,
  fn: (tx: Queryable) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      `INSERT INTO ${assertSchemaName(db.schema)}.processed_events (consumer, event_id)
       VALUES ($1, $2)
       ON CONFLICT DO NOTHING`,
      [consumer, eventId],
    );
    if (rowCount === 0) return false;
    await fn(tx);
    return true;
  });
}

/**
 * What a consumer does with events: `effectOf` parses an event (a parse error is retried, then
 * dead-lettered, as any handler failure) and returns the effect to apply in the transaction that
 * records it, or undefined to ignore the event. `afterEach`, if any, runs after that transaction
 * for every event with an effect, applied or a duplicate.
 */
export type EventConsumer = {
  eventTypes: readonly string[];
  effectOf: (envelope: EventEnvelope) => EventEffect | undefined;
  afterEach?: (envelope: EventEnvelope) => Promise<void>;
};

/** What an event does, in the transaction that records it as processed. */
export type EventEffect = (tx: Queryable) => Promise<void>;

/** Of each event type consumed, the effect of one event of it (undefined: none). */
export type EventEffects = Partial<Record<EventType, (envelope: EventEnvelope) => EventEffect | undefined>>;

/** A consumer of the event types `effects` names, each event given to its type's function. */
export function consumerOf(effects: EventEffects): EventConsumer {
  return {
    eventTypes: Object.keys(effects),
    effectOf: (envelope) => effects[envelope.type as EventType]?.(envelope),
  };
}

/**
 * A consumer whose every event applies once (handleOnce) on the consumer's own queue. Each
 * delivery is logged at debug as 'event consumed' with whether it applied.
 */
export function subscribeOnce(
  deps: EventConsumer & {
    bus: Bus;
    db: Db;
    queue: string;
    logger: Logger;
  },
): Promise<void> {
  const { bus, db, queue, logger } = deps;
  return bus.subscribe({
    queue,
    eventTypes: [...deps.eventTypes],
    handler: async (envelope) => {
      const effect = deps.effectOf(envelope);
      if (!effect) return;
      const applied = await handleOnce(db, queue, envelope.id, effect);
      logger.debug({ eventType: envelope.type, eventId: envelope.id, applied }, 'event consumed');
      await deps.afterEach?.(envelope);
    },
  });
}
