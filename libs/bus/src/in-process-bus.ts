import type { EventEnvelope } from '@tolk/contracts';
import { currentRequestId, runWithRequestId, type Logger } from '@tolk/logger';
import type { Bus, SubscribeOptions } from './bus.js';
import { noteConsumerFailure, noteDeadLettered } from './metrics.js';

const RETRY_INITIAL_DELAY_MS = 50;
const RETRY_MAX_DELAY_MS = 2000;

type Subscription = SubscribeOptions & { dead: EventEnvelope[] };

/**
 * The bus of the embedded mode (DESIGN §8): every consumer in this process, one queue per
 * consumer as with RabbitMQ. `publish` resolves once every consumer bound to the event's type has
 * handled it — or given up after `maxAttempts` tries (the event is then kept in that consumer's
 * dead letters and logged) — so the outbox relay marks a row published only when its effect is
 * done: a crash before that leaves the row in the outbox, to be sent again at the next start.
 * Consumers are idempotent (handleOnce), as they must be with RabbitMQ's at-least-once delivery.
 * Subscribe every consumer before starting the relays: events published before a consumer
 * subscribes do not reach it.
 */
export function createInProcessBus(options: { logger: Logger }): Bus & {
  /** What each consumer gave up on, by queue. */
  deadLetters(queue: string): readonly EventEnvelope[];
} {
  const { logger } = options;
  const subscriptions = new Map<string, Subscription>();
  let closed = false;

  async function deliver(subscription: Subscription, envelope: EventEnvelope): Promise<void> {
    const maxAttempts = subscription.maxAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      try {
        await subscription.handler(structuredClone(envelope), { redelivered: false, attempt });
        return;
      } catch (err) {
        const log = { queue: subscription.queue, eventId: envelope.id, eventType: envelope.type, attempt };
        noteConsumerFailure(subscription.queue, envelope.type);
        if (attempt >= maxAttempts || closed) {
          subscription.dead.push(envelope);
          noteDeadLettered(subscription.queue, envelope.type);
          logger.error({ ...log, err }, 'event handler failed for the last time; kept as a dead letter');
          return;
        }
        logger.warn({ ...log, err }, 'event handler failed; retrying');
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(RETRY_INITIAL_DELAY_MS * 2 ** (attempt - 1), RETRY_MAX_DELAY_MS)),
        );
      }
    }
  }

  return {
    async publish(envelope) {
      if (closed) throw new Error('the in-process bus is closed');
      const requestId = currentRequestId();
      const targets = [...subscriptions.values()].filter((s) => s.eventTypes.includes(envelope.type));
      const run = () => Promise.all(targets.map((subscription) => deliver(subscription, envelope)));
      await (requestId ? runWithRequestId(requestId, run) : run());
    },

    async subscribe(subscribeOptions) {
      if (subscriptions.has(subscribeOptions.queue)) {
        throw new Error(`queue ${subscribeOptions.queue} already has a consumer`);
      }
      subscriptions.set(subscribeOptions.queue, { ...subscribeOptions, dead: [] });
    },

    async close() {
      closed = true;
    },

    isConnected: () => !closed,

    deadLetters: (queue) => subscriptions.get(queue)?.dead ?? [],
  };
}
