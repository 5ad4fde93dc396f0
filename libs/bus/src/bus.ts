import type { EventEnvelope } from '@tolk/contracts';

/** What a consumer learns about one delivery besides the event itself. */
export type DeliveryMeta = {
  /** The broker delivered this message before without an ack (e.g. a consumer crashed). */
  redelivered: boolean;
  /** 1 on the first try; grows by one each time the handler failed and the message was retried. */
  attempt: number;
};

export type EventHandler = (envelope: EventEnvelope, meta: DeliveryMeta) => Promise<void>;

export type SubscribeOptions = {
  /** Durable queue of this consumer; each consumer (service + purpose) has its own. */
  queue: string;
  /** Event types routed to the queue. */
  eventTypes: string[];
  /** Acked only after it resolves; a rejection is retried, then dead-lettered. */
  handler: EventHandler;
  /** Handler tries before the message goes to the dead-letter queue. Default 5. */
  maxAttempts?: number;
  /** Messages in flight (and handlers running) at once for this consumer. Default 10. */
  prefetch?: number;
  /**
   * How long a failed message waits before each retry: the first entry before the second try,
   * and so on; the last one repeats. Whole milliseconds, at least 1. Each bus has its default.
   * The message waits outside the handler (on RabbitMQ in a retry queue per delay), so the
   * consumer takes other messages meanwhile.
   */
  retryDelaysMs?: readonly number[];
};

/** The wait before the try after failed try `attempt` (1 = the first). */
export function retryDelayAfter(attempt: number, retryDelaysMs: readonly number[]): number {
  const delay = retryDelaysMs[Math.min(Math.max(attempt, 1), retryDelaysMs.length) - 1];
  if (delay === undefined) throw new Error('retryDelaysMs is empty');
  return delay;
}

/** The retry delays of a subscription, checked once at subscribe: a bad list is a programming error. */
export function checkRetryDelays(retryDelaysMs: readonly number[]): readonly number[] {
  if (
    retryDelaysMs.length === 0 ||
    !retryDelaysMs.every((ms) => Number.isInteger(ms) && ms >= 1 && ms <= 2 ** 31 - 1)
  ) {
    throw new Error(
      `retryDelaysMs must be whole milliseconds from 1 to 2^31-1, got [${retryDelaysMs.join(', ')}]`,
    );
  }
  return [...retryDelaysMs];
}

/**
 * The event bus every service codes against (DESIGN §6). RabbitMQ implements it; an in-process
 * implementation can sit behind the same interface for the embedded mode.
 */
export interface Bus {
  /** Resolves once the broker confirmed the message; waits (bounded) through an outage. */
  publish(envelope: EventEnvelope): Promise<void>;
  /** Resolves once the consumer is declared and consuming. */
  subscribe(options: SubscribeOptions): Promise<void>;
  close(): Promise<void>;
  isConnected(): boolean;
}
