import { defineCounter, defineGauge, defineHistogram } from '@tolk/logger';

/** A scrape waits this long at most for the database or the broker; a slower answer is skipped. */
const SCRAPE_TIMEOUT_MS = 1000;

/** The `event_type` of a message that is not a readable event envelope. */
export const UNREADABLE_EVENT = 'unreadable';

const consumerFailures = defineCounter({
  name: 'bus_consumer_failures_total',
  help: 'Event handler tries that failed (every retry counts), and unreadable messages (event_type="unreadable")',
  labelNames: ['queue', 'event_type'],
});

const deadLettered = defineCounter({
  name: 'bus_messages_dead_lettered_total',
  help: 'Messages a consumer gave up on and sent to its dead-letter queue (<queue>.dlq)',
  labelNames: ['queue', 'event_type'],
});

export function noteConsumerFailure(queue: string, eventType: string): void {
  consumerFailures.inc({ queue, event_type: eventType });
}

export function noteDeadLettered(queue: string, eventType: string): void {
  deadLettered.inc({ queue, event_type: eventType });
}

/**
 * A value measured on scrape by whatever is running in the process (each bus, each relay): on
 * every scrape each source is asked, bounded in time; a source that fails or is slow keeps its
 * last values. When a source stops, its series go.
 */
function scrapedGauges<M>(
  apply: (measurement: M) => void,
  remove: (measurement: M) => void,
): {
  collect: () => Promise<void>;
  watch: (measure: () => Promise<M[]>) => () => void;
} {
  const sources = new Map<() => Promise<M[]>, M[]>();
  let collecting: Promise<void> | undefined;
  async function collectOnce(): Promise<void> {
    await Promise.all(
      [...sources.keys()].map(async (measure) => {
        const measured = await bounded(measure());
        if (!measured || !sources.has(measure)) return;
        sources.set(measure, measured);
        measured.forEach(apply);
      }),
    );
  }
  return {
    // The gauges of one family are collected together, once per scrape.
    collect: () => (collecting ??= collectOnce().finally(() => (collecting = undefined))),
    watch(measure) {
      sources.set(measure, []);
      return () => {
        sources.get(measure)?.forEach(remove);
        sources.delete(measure);
      };
    },
  };
}

type DeadLetterDepth = { queue: string; messages: number };

const deadLetterDepths = scrapedGauges<DeadLetterDepth>(
  ({ queue, messages }) => deadLetterGauge.set({ queue }, messages),
  ({ queue }) => deadLetterGauge.remove({ queue }),
);

const deadLetterGauge = defineGauge({
  name: 'bus_dead_letter_messages',
  help: "Messages waiting in a consumer's dead-letter queue (<queue>.dlq), asked of the broker on scrape",
  labelNames: ['queue'],
  collect: () => deadLetterDepths.collect(),
});

/** Reports the dead-letter queues' depths on every scrape; the returned function stops it. */
export function watchDeadLetterDepths(measure: () => Promise<DeadLetterDepth[]>): () => void {
  return deadLetterDepths.watch(measure);
}

type OutboxBacklog = { schema: string; pending: number; oldestAgeSeconds: number };

const outboxBacklogs = scrapedGauges<OutboxBacklog>(
  ({ schema, pending, oldestAgeSeconds }) => {
    outboxPending.set({ schema }, pending);
    outboxOldestAge.set({ schema }, oldestAgeSeconds);
  },
  ({ schema }) => {
    outboxPending.remove({ schema });
    outboxOldestAge.remove({ schema });
  },
);

const outboxPending = defineGauge({
  name: 'outbox_pending_events',
  help: 'Events in the outbox not yet published, by schema, counted on scrape',
  labelNames: ['schema'],
  collect: () => outboxBacklogs.collect(),
});

const outboxOldestAge = defineGauge({
  name: 'outbox_oldest_pending_age_seconds',
  help: 'Age of the oldest unpublished event in the outbox, 0 when none: the number to alert on',
  labelNames: ['schema'],
  collect: () => outboxBacklogs.collect(),
});

const relayLag = defineHistogram({
  name: 'outbox_relay_lag_seconds',
  help: "Time from an event's transaction (its outbox row's created_at) to its publish confirmed and marked",
  labelNames: ['schema'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
});

/** Reports an outbox's backlog on every scrape; the returned function stops it. */
export function watchOutboxBacklog(measure: () => Promise<OutboxBacklog>): () => void {
  return outboxBacklogs.watch(async () => [await measure()]);
}

/** The rows a relay just marked published, each with its lag (`lag_seconds`, database clock). */
export function noteRelayed(schema: string, published: { rows: Array<{ lag_seconds: number }> }): void {
  for (const row of published.rows) relayLag.observe({ schema }, Math.max(0, Number(row.lag_seconds)));
}

/** The promise's value, or undefined when it fails or takes longer than a scrape may wait. */
function bounded<T>(promise: Promise<T>): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), SCRAPE_TIMEOUT_MS);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}
