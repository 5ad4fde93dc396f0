import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, realServers, settled } from '@tolk/testing';
import { createPgDb, migrate, type Db } from '@tolk/db';
import { currentRequestId, runWithRequestId } from '@tolk/logger';
import type { EventEnvelope } from '@tolk/contracts';
import {
  busTablesSql,
  createRabbitBus,
  enqueueEvent,
  startOutboxRelay,
  type Bus,
  type OutboxRelay,
} from '@tolk/bus';
import { envelope, memoryLogger, openAdmin, startTcpProxy, uniqueEventType, uniqueQueue } from './support.js';

describe.skipIf(!realServers().postgres || !realServers().rabbitmq)('outbox relay', () => {
  const { postgresUrl, amqpUrl } = inject('infrastructure');
  const { logger } = memoryLogger();
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: Awaited<ReturnType<typeof openAdmin>>;
  let consumerBus: Bus;
  const dbs: Db[] = [];
  const buses: Bus[] = [];
  const relays: OutboxRelay[] = [];
  const proxies: Array<Awaited<ReturnType<typeof startTcpProxy>>> = [];
  let migrations: string;

  beforeAll(async () => {
    database = await createTestDatabase(postgresUrl);
    admin = await openAdmin(amqpUrl);
    consumerBus = createRabbitBus({ url: amqpUrl, logger });
    migrations = await mkdtemp(path.join(os.tmpdir(), 'tolk-outbox-'));
  });
  afterAll(async () => {
    await Promise.all(relays.map((relay) => relay.stop()));
    await Promise.all([consumerBus, ...buses].map((bus) => bus.close()));
    await Promise.all(proxies.map((proxy) => proxy.stop()));
    await Promise.all(dbs.map((db) => db.close()));
    await admin.close();
    await database.drop();
  });

  /** A service schema with the bus's tables, as the service frame migrates it. */
  async function serviceDb(schema: string): Promise<Db> {
    const db = createPgDb({ url: database.url, schema });
    dbs.push(db);
    await migrate(db, migrations, undefined, { before: busTablesSql({ outbox: true, consumes: true }) });
    return db;
  }

  async function relay(options: { db: Db; bus?: Bus; pollIntervalMs?: number; batchSize?: number }) {
    const started = await startOutboxRelay({ bus: consumerBus, logger, ...options });
    relays.push(started);
    return started;
  }

  async function consume(type: string) {
    const received: Array<{ event: EventEnvelope; at: number; requestId: string | undefined }> = [];
    const queue = uniqueQueue('outbox');
    admin.track(queue);
    await consumerBus.subscribe({
      queue,
      eventTypes: [type],
      handler: async (event) => void received.push({ event, at: Date.now(), requestId: currentRequestId() }),
    });
    return received;
  }

  async function pending(db: Db): Promise<string[]> {
    const { rows } = await db.query<{ id: string }>(
      'SELECT id FROM outbox WHERE published_at IS NULL ORDER BY seq',
    );
    return rows.map((row) => row.id);
  }

  it('when the transaction commits, then the event is delivered by NOTIFY long before the poll', async () => {
    const db = await serviceDb('notify_svc');
    const type = uniqueEventType();
    const received = await consume(type);
    const outbox = await relay({ db, pollIntervalMs: 60_000 });
    await outbox.flush();

    const event = envelope(type, { n: 1 });
    const committedAt = await runWithRequestId('req-outbox-1', () =>
      db.transaction(async (tx) => {
        await tx.query('SELECT 1'); // the state change would happen here
        await enqueueEvent(tx, db.schema, event);
        return Date.now();
      }),
    );

    await expect.poll(() => received, { ...settled, timeout: 5000, message: 'delivery' }).toHaveLength(1);
    expect(received[0]?.event).toEqual(event);
    expect(received[0]?.requestId).toBe('req-outbox-1');
    expect(received[0]!.at - committedAt).toBeLessThan(1000);
    await expect
      .poll(async () => await pending(db), { ...settled, message: 'row marked published' })
      .toHaveLength(0);
  });

  it('when the transaction rolls back, then no event is sent', async () => {
    const db = await serviceDb('rollback_svc');
    const type = uniqueEventType();
    const received = await consume(type);
    await relay({ db, pollIntervalMs: 60_000 });

    const rolledBack = envelope(type, { n: 'rolled back' });
    await expect(
      db.transaction(async (tx) => {
        await enqueueEvent(tx, db.schema, rolledBack);
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow(/state change failed/);
    const committed = envelope(type, { n: 'committed' });
    await db.transaction((tx) => enqueueEvent(tx, db.schema, committed));

    // The relay works in commit order, so once the later event is here the earlier would be too.
    await expect
      .poll(() => received, { ...settled, timeout: 5000, message: 'the committed event' })
      .toHaveLength(1);
    expect(received.map((r) => r.event.id)).toEqual([committed.id]);
    const { rows } = await db.query('SELECT id FROM outbox WHERE id = $1', [rolledBack.id]);
    expect(rows).toEqual([]);
  });

  it('when the broker is unreachable, then rows stay pending and go out after it returns', async () => {
    const db = await serviceDb('outage_svc');
    const type = uniqueEventType();
    const received = await consume(type);
    const tcp = await startTcpProxy(amqpUrl);
    proxies.push(tcp);
    await tcp.stop();
    const downBus = createRabbitBus({ url: tcp.url, logger, publishTimeoutMs: 500 });
    buses.push(downBus);
    const outbox = await relay({ db, bus: downBus, pollIntervalMs: 200 });

    const event = envelope(type);
    await db.transaction((tx) => enqueueEvent(tx, db.schema, event));
    await outbox.flush();
    // Kept: the pending row must age past 500 ms, a real interval with nothing to await.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await pending(db)).toEqual([event.id]);
    expect(await outbox.oldestPendingAgeMs()).toBeGreaterThanOrEqual(500);
    expect(received).toEqual([]);

    await tcp.start();
    await expect
      .poll(() => received, { ...settled, timeout: 15_000, message: 'delivery after the outage' })
      .toHaveLength(1);
    expect(received[0]?.event.id).toBe(event.id);
    await expect
      .poll(async () => await pending(db), { ...settled, message: 'row marked published' })
      .toHaveLength(0);
    expect(await outbox.oldestPendingAgeMs()).toBe(0);
  });

  it('when several relays share an outbox, then each event is sent once', async () => {
    const db = await serviceDb('shared_svc');
    const type = uniqueEventType();
    const received = await consume(type);
    // A slower broker round trip keeps every relay's batch open long enough for them to collide.
    const slowBus: Bus = {
      ...consumerBus,
      publish: async (event) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await consumerBus.publish(event);
      },
    };
    const relayDbs = await Promise.all([1, 2, 3].map(() => serviceDb('shared_svc')));
    await Promise.all(
      relayDbs.map((relayDb) => relay({ db: relayDb, bus: slowBus, pollIntervalMs: 60_000, batchSize: 10 })),
    );

    const events = Array.from({ length: 300 }, (_, n) => envelope(type, { n }));
    for (let i = 0; i < events.length; i += 30) {
      await db.transaction(async (tx) => {
        for (const event of events.slice(i, i + 30)) await enqueueEvent(tx, db.schema, event);
      });
    }

    await expect
      .poll(() => received.length, { ...settled, timeout: 15_000, message: 'all events' })
      .toBeGreaterThanOrEqual(events.length);
    // Kept: a duplicate is an absence to rule out; one would arrive within this.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toHaveLength(events.length);
    expect(new Set(received.map((r) => r.event.id)).size).toBe(events.length);
    // Rows are marked once the broker confirms, which may come after the consumer has them.
    await expect
      .poll(async () => await pending(db), { ...settled, message: 'rows marked published' })
      .toEqual([]);
  });

  it('when published rows are old enough, then cleanup deletes them and keeps pending ones', async () => {
    const db = await serviceDb('cleanup_svc');
    const type = uniqueEventType();
    const outbox = await relay({ db, pollIntervalMs: 60_000 });
    const published = envelope(type);
    await db.transaction((tx) => enqueueEvent(tx, db.schema, published));
    await expect
      .poll(async () => await pending(db), { ...settled, message: 'row published' })
      .toHaveLength(0);
    await outbox.stop();
    const stillPending = envelope(type);
    await db.transaction((tx) => enqueueEvent(tx, db.schema, stillPending));

    expect(await outbox.deletePublishedOlderThan(60_000)).toBe(0);
    expect(await outbox.deletePublishedOlderThan(0)).toBe(1);
    const { rows } = await db.query<{ id: string }>('SELECT id FROM outbox');
    expect(rows.map((row) => row.id)).toEqual([stillPending.id]);
  });

  it('when an envelope is invalid, then enqueueEvent throws and the transaction rolls back', async () => {
    const db = await serviceDb('invalid_svc');
    await expect(
      db.transaction((tx) => enqueueEvent(tx, db.schema, { ...envelope('X'), occurredAt: -1 })),
    ).rejects.toThrow();
    expect(await pending(db)).toEqual([]);
  });
});
