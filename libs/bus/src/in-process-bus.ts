import type { EventEnvelope } from '@tolk/contracts';
import { currentRequestId, runWithRequestId, type Logger } from '@tolk/logger';
import { checkRetryDelays, retryDelayAfter, type Bus, type SubscribeOptions } from './bus.js';
import { noteConsumerFailure, noteDeadLettered } from './metrics.js';

const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [50, 100, 200, 400, 800, 1_600, 2_000];

type Subscription = SubscribeOptions & { retryDelaysMs: readonly number[]; dead: EventEnvelope[] };

/** A failed delivery waiting for its next try. */
type PendingRetry = { fire: () => void };

/**
 * The bus of the embedded mode (DESIGN §8): every consumer in this process, one queue per
 * consumer as with RabbitMQ. `publish` resolves once every consumer bound to the event's type has
 * had its first try: handled it, or failed and had its retry scheduled, or given up (the event is
 * then kept in that consumer's dead letters and logged). A retry waits on a timer, as RabbitMQ's
 * wait in a retry queue, not in the handler nor in `publish`: the outbox relay goes on with the
 * next events meanwhile. Retries wait in memory, as the dead letters are kept: a process that
 * crashes in that window loses them, while `close` runs the waiting retries at once.
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
  const pendingRetries = new Set<PendingRetry>();
  const retriesRunning = new Set<Promise<void>>();
  let closed = false;

  async function attempt(
    subscription: Subscription,
    envelope: EventEnvelope,
    attemptNumber: number,
  ): Promise<void> {
    const maxAttempts = Math.max(1, subscription.maxAttempts ?? 5);
    const log = {
      queue: subscription.queue,
      eventId: envelope.id,
      eventType: envelope.type,
      attempt: attemptNumber,
    };
    try {
      await subscription.handler(structuredClone(envelope), { redelivered: false, attempt: attemptNumber });
    } catch (err) {
      noteConsumerFailure(subscription.queue, envelope.type);
      if (attemptNumber >= maxAttempts || closed) {
        subscription.dead.push(envelope);
        noteDeadLettered(subscription.queue, envelope.type);
        logger.error({ ...log, err }, 'event handler failed for the last time; kept as a dead letter');
        return;
      }
      const delayMs = retryDelayAfter(attemptNumber, subscription.retryDelaysMs);
      logger.warn({ ...log, err, retryInMs: delayMs }, 'event handler failed; retrying');
      scheduleRetry(subscription, envelope, attemptNumber + 1, delayMs);
    }
  }

  function scheduleRetry(
    subscription: Subscription,
    envelope: EventEnvelope,
    attemptNumber: number,
    delayMs: number,
  ): void {
    // The retry runs in the request of the publish that caused it, whoever fires it.
    const requestId = currentRequestId();
    const retry: PendingRetry = {
      fire() {
        clearTimeout(timer);
        if (!pendingRetries.delete(retry)) return;
        const run = () => attempt(subscription, envelope, attemptNumber);
        const running = requestId ? runWithRequestId(requestId, run) : run();
        retriesRunning.add(running);
        void running.finally(() => retriesRunning.delete(running));
      },
    };
    const timer = setTimeout(() => retry.fire(), delayMs);
    pendingRetries.add(retry);
  }

  return {
    async publish(envelope) {
      if (closed) throw new Error('the in-process bus is closed');
      const requestId = currentRequestId();
      const targets = [...subscriptions.values()].filter((s) => s.eventTypes.includes(envelope.type));
      const run = () => Promise.all(targets.map((subscription) => attempt(subscription, envelope, 1)));
      await (requestId ? runWithRequestId(requestId, run) : run());
    },

    async subscribe(subscribeOptions) {
      if (subscriptions.has(subscribeOptions.queue)) {
        throw new Error(`queue ${subscribeOptions.queue} already has a consumer`);
      }
      subscriptions.set(subscribeOptions.queue, {
        ...subscribeOptions,
        retryDelaysMs: checkRetryDelays(subscribeOptions.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS),
        dead: [],
      });
    },

    async close() {
      closed = true;
      // Nothing outlives the process's memory: the waiting retries get their last try now (a
      // failure is kept as a dead letter), before the caller closes what the handlers use.
      for (const retry of [...pendingRetries]) retry.fire();
      while (retriesRunning.size > 0) await Promise.allSettled([...retriesRunning]);
    },

    isConnected: () => !closed,

    deadLetters: (queue) => subscriptions.get(queue)?.dead ?? [],
  };
}
