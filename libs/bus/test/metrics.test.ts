import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REQUEST_ID_HEADER } from '@tolk/contracts';
import { createPgDb, migrate, type Db } from '@tolk/db';
import { renderMetrics, runWithRequestId } from '@tolk/logger';
import { createTestDatabase, parsePrometheusText, realServers, sampleValue, settled } from '@tolk/testing';
import {
  busTablesSql,
  createRabbitBus,
  enqueueEvent,
  startOutboxRelay,
  type Bus,
  type OutboxRelay,
} from '@tolk/bus';
import {
  envelope,
  memoryLogger,
  openAdmin,
  randomSuffix,
  startTcpProxy,
  uniqueEventType,
  uniqueQueue,
} from './support.js';

/** This process's metrics, as GET /metrics renders them. */
async function scrape() {
  return parsePrometheusText((await renderMetrics()).text);
}

describe.skipIf(!realServers().postgres || !realServers().rabbitmq)('bus and outbox metrics', () => {
  const { postgresUrl, amqpUrl } = inject('infrastructure');
  const { logger, lines } = memoryLogger();
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: Awaited<ReturnType<typeof openAdmin>>;
  let migrations: string;
  const dbs: Db[] = [];
  const buses: Bus[] = [];
  const relays: OutboxRelay[] = [];
  const proxies: Array<Awaited<ReturnType<typeof startTcpProxy>>> = [];

  beforeAll(async () => {
    database = await createTestDatabase(postgresUrl);
    admin = await openAdmin(amqpUrl);
    migrations = await mkdtemp(path.join(os.tmpdir(), 'tolk-outbox-metrics-'));
  });
  afterAll(async () => {
    await Promise.all(relays.map((relay) => relay.stop()));
    await Promise.all(buses.map((bus) => bus.close()));
    await Promise.all(proxies.map((proxy) => proxy.stop()));
    await Promise.all(dbs.map((db) => db.close()));
    await admin.close();
    await database.drop();
  });

  function bus(url = amqpUrl): Bus {
    const created = createRabbitBus({ url, logger, publishTimeoutMs: 500 });
    buses.push(created);
    return created;
  }

  it('when the broker is away, then the outbox gauges show the pending row, and 0 again once it is relayed', async () => {
    const schema = `metrics_${randomSuffix()}`;
    const db = createPgDb({ url: database.url, schema });
    dbs.push(db);
    await migrate(db, migrations, undefined, { before: busTablesSql({ outbox: true, consumes: true }) });
    const tcp = await startTcpProxy(amqpUrl);
    proxies.push(tcp);
    await tcp.stop();
    const relay = await startOutboxRelay({ db, bus: bus(tcp.url), logger, pollIntervalMs: 100 });
    relays.push(relay);
    const read = async () => {
      const samples = await scrape();
      return {
        pending: sampleValue(samples, 'outbox_pending_events', { schema }),
        oldest: sampleValue(samples, 'outbox_oldest_pending_age_seconds', { schema }),
        relayed: sampleValue(samples, 'outbox_relay_lag_seconds_count', { schema }),
        lagSum: sampleValue(samples, 'outbox_relay_lag_seconds_sum', { schema }),
        lagUnderAQuarterSecond: sampleValue(samples, 'outbox_relay_lag_seconds_bucket', {
          schema,
          le: '0.25',
        }),
      };
    };
    expect(await read()).toMatchObject({ pending: 0, oldest: 0, relayed: 0 });

    await db.transaction((tx) => enqueueEvent(tx, db.schema, envelope(uniqueEventType())));
    // Kept: the oldest pending event must age past 0.5 s, a real interval with nothing to await.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const waiting = await read();
    expect(waiting.pending).toBe(1);
    expect(waiting.oldest).toBeGreaterThanOrEqual(0.5);
    expect(waiting.relayed).toBe(0);

    await tcp.start();
    await expect
      .poll(async () => (await read()).pending, { ...settled, timeout: 15_000, message: 'the row relayed' })
      .toBe(0);
    const relayed = await read();
    expect(relayed.oldest).toBe(0);
    expect(relayed.relayed).toBe(1);
    // From its transaction to its confirm, the row waited out the outage.
    expect(relayed.lagSum).toBeGreaterThanOrEqual(0.5);
    expect(relayed.lagUnderAQuarterSecond).toBe(0);
  });

  it('when a relay stops, then its outbox series go', async () => {
    const schema = `metrics_${randomSuffix()}`;
    const db = createPgDb({ url: database.url, schema });
    dbs.push(db);
    await migrate(db, migrations, undefined, { before: busTablesSql({ outbox: true, consumes: true }) });
    const relay = await startOutboxRelay({ db, bus: bus(), logger });
    expect(
      (await scrape()).some((s) => s.name === 'outbox_pending_events' && s.labels['schema'] === schema),
    ).toBe(true);
    await relay.stop();
    expect((await scrape()).some((s) => s.labels['schema'] === schema)).toBe(false);
  });

  it('when a handler fails until the message is dead-lettered, then failures, dead letters and the DLQ depth count it', async () => {
    const consumer = bus();
    const type = uniqueEventType();
    const queue = uniqueQueue('metrics');
    admin.track(queue);
    await consumer.subscribe({
      queue,
      eventTypes: [type],
      maxAttempts: 2,
      handler: async () => {
        throw new Error('cannot handle this one');
      },
    });
    const read = async () => {
      const samples = await scrape();
      return {
        failures: sampleValue(samples, 'bus_consumer_failures_total', { queue, event_type: type }),
        deadLettered: sampleValue(samples, 'bus_messages_dead_lettered_total', { queue, event_type: type }),
        depth: sampleValue(samples, 'bus_dead_letter_messages', { queue }),
      };
    };
    expect(await read()).toEqual({ failures: 0, deadLettered: 0, depth: 0 });

    await runWithRequestId('req-poison-1', () => consumer.publish(envelope(type)));
    await expect
      .poll(async () => (await read()).depth, { ...settled, message: 'the dead-letter depth' })
      .toBe(1);
    expect(await read()).toEqual({ failures: 2, deadLettered: 1, depth: 1 });

    // The failure lines name the request that caused the event, as the handler's own lines do.
    const failureLines = lines.filter((line) => line['queue'] === queue && line['eventType'] === type);
    expect(failureLines.map((line) => line['msg'])).toEqual([
      'event handler failed; retrying',
      'event handler failed for the last time; sent to the dead-letter queue',
    ]);
    expect(failureLines.map((line) => line['requestId'])).toEqual(['req-poison-1', 'req-poison-1']);

    // Not an event at all: one failure and straight to the dead-letter queue.
    admin.channel.sendToQueue(queue, Buffer.from('not json'), {
      headers: { [REQUEST_ID_HEADER]: 'req-garbage' },
    });
    await admin.channel.waitForConfirms();
    await expect
      .poll(async () => (await read()).depth, { ...settled, message: 'the unreadable message dead-lettered' })
      .toBe(2);
    const samples = await scrape();
    expect(sampleValue(samples, 'bus_consumer_failures_total', { queue, event_type: 'unreadable' })).toBe(1);
    expect(
      sampleValue(samples, 'bus_messages_dead_lettered_total', { queue, event_type: 'unreadable' }),
    ).toBe(1);
    expect(
      lines.find((line) => line['queue'] === queue && line['requestId'] === 'req-garbage')?.['msg'],
    ).toBe('unreadable message sent to the dead-letter queue');
  });
});
