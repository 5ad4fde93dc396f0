import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createInProcessBus } from '@tolk/bus';
import { INTERNAL_CALLER_HEADER } from '@tolk/contracts';
import type { Db } from '@tolk/db';
import { createLogger } from '@tolk/logger';
import {
  listen,
  openTestBroker,
  openTestDatabase,
  realServers,
  request,
  settled,
  type TestDatabase,
} from '@tolk/testing';
import { openService, readinessOf } from '../src/index.js';
import { echoService } from './fixture/echo-service.js';

const logger = createLogger({ name: 'service-test', level: 'silent' });
const ROOT = path.resolve(import.meta.dirname, '../../..');

/** The tables of `db`'s schema, by name. */
async function tables(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
    [db.schema],
  );
  return rows.map((row) => row.name);
}

describe('openService', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await openTestDatabase();
    db = database.db(echoService.schema);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  async function effects(eventId: string): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM effects WHERE event_id = $1',
      [eventId],
    );
    return rows[0]!.n;
  }

  it('when opened, then its schema is migrated and its app reads the configuration given as env', async () => {
    const bus = createInProcessBus({ logger });
    const service = await openService(echoService, {
      env: {
        DATABASE_URL: database.url,
        AMQP_URL: 'amqp://unused',
        INTERNAL_JWT_SECRET: 'x'.repeat(32),
        GREETING: 'hej',
      },
      db,
      bus,
      logger,
    });
    const { rows } = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(rows.map((row) => row.name)).toEqual(['0001_effects.sql']);
    // The bus's tables, which its migrations do not hold: the frame creates them.
    expect(await tables(db)).toEqual(['effects', 'outbox', 'processed_events', 'schema_migrations']);
    expect(service.config).toMatchObject({ GREETING: 'hej', PORT: 18999 });
    expect(service.consumes).toBe(true);
    const server = await listen(service.app);
    try {
      expect((await request(`${server.url}/greeting`)).body).toEqual({ greeting: 'hej' });
    } finally {
      await server.close();
      await service.close();
      await bus.close();
    }
  });

  it('when opened, then the frame builds its app around its routes: readiness of its database and bus, the internal guard, its calls signed as the service', async () => {
    const bus = createInProcessBus({ logger });
    const service = await openService(echoService, {
      env: { DATABASE_URL: database.url, AMQP_URL: 'amqp://unused', INTERNAL_JWT_SECRET: 'x'.repeat(32) },
      db,
      bus,
      logger,
    });
    const server = await listen(service.app);
    try {
      expect((await request(`${server.url}/readyz`)).body).toEqual({ status: 'ready' });
      const { token } = (await request(`${server.url}/signature`)).body as { token: string };
      expect((await request(`${server.url}/internal/caller`)).status).toBe(401);
      const called = await request(`${server.url}/internal/caller`, {
        headers: { [INTERNAL_CALLER_HEADER]: token },
      });
      expect(called.body).toEqual({ caller: 'token-service' });
      await bus.close();
      const unready = await request(`${server.url}/readyz`);
      expect(unready.status).toBe(503);
      expect(unready.body).toEqual({
        error: { code: 'SERVICE_UNAVAILABLE', message: 'A dependency is not reachable' },
      });
    } finally {
      await server.close();
      await service.close();
    }
  });

  it('when the configuration is incomplete, then opening fails naming every variable', async () => {
    const bus = createInProcessBus({ logger });
    await expect(openService(echoService, { env: {}, db, bus, logger })).rejects.toThrow(
      /DATABASE_URL: is required but not set[\s\S]*AMQP_URL: is required but not set[\s\S]*INTERNAL_JWT_SECRET/,
    );
    await bus.close();
  });

  it('when it declares no outbox and no consumer, then its schema gets none of the bus tables', async () => {
    const quiet = database.db(`quiet_${randomBytes(4).toString('hex')}`);
    const bus = createInProcessBus({ logger });
    try {
      await openService(
        {
          ...echoService,
          schema: quiet.schema,
          outbox: false,
          consumes: false,
          create: () => ({ router: Router() }),
        },
        {
          env: { DATABASE_URL: database.url, AMQP_URL: 'amqp://unused', INTERNAL_JWT_SECRET: 'x'.repeat(32) },
          db: quiet,
          bus,
          logger,
        },
      );
      expect(await tables(quiet)).toEqual(['effects', 'schema_migrations']);
    } finally {
      await bus.close();
      await quiet.close();
    }
  });

  it('when its composition returns a consumer its definition does not declare, then opening fails saying so', async () => {
    const bus = createInProcessBus({ logger });
    try {
      await expect(
        openService(
          { ...echoService, consumes: false },
          {
            env: {
              DATABASE_URL: database.url,
              AMQP_URL: 'amqp://unused',
              INTERNAL_JWT_SECRET: 'x'.repeat(32),
            },
            db,
            bus,
            logger,
          },
        ),
      ).rejects.toThrow(
        'token-service: its definition says consumes: false, but its composition returns consumer',
      );
    } finally {
      await bus.close();
    }
  });

  it("when events reach its consumer, then each applies once, recorded under the service's own queue by default", async () => {
    const bus = createInProcessBus({ logger });
    const service = await openService(echoService, {
      env: { DATABASE_URL: database.url, AMQP_URL: 'amqp://unused', INTERNAL_JWT_SECRET: 'x'.repeat(32) },
      db,
      bus,
      logger,
    });
    await service.consume();
    const envelope = {
      id: randomUUID(),
      type: 'EchoTested',
      occurredAt: Date.now(),
      producer: 'test',
      data: {},
    };
    await bus.publish(envelope);
    await bus.publish(envelope);
    expect(await effects(envelope.id)).toBe(1);
    const { rows } = await db.query<{ consumer: string }>(
      'SELECT consumer FROM processed_events WHERE event_id = $1',
      [envelope.id],
    );
    expect(rows).toEqual([{ consumer: 'token-service' }]);
    await service.close();
    await bus.close();
  });

  it('when its app writes an event to the outbox, then the relay sends it over the bus to the consumer on a given queue', async () => {
    const broker = await openTestBroker({ logger });
    const bus = broker.bus({ logger, producer: 'token-service' });
    const queue = `service-test-${randomUUID()}`;
    const service = await openService(echoService, {
      env: { DATABASE_URL: database.url, AMQP_URL: broker.url, INTERNAL_JWT_SECRET: 'x'.repeat(32) },
      db,
      bus,
      logger,
    });
    const server = await listen(service.app);
    try {
      await service.consume(queue);
      await service.relay(database.relayOptions);
      const written = await request(`${server.url}/events/EchoTested`, { method: 'POST' });
      expect(written.status).toBe(201);
      const eventId = written.body.eventId as string;
      await expect.poll(() => effects(eventId), { ...settled, message: 'the event applied' }).toBe(1);
      // The relay marks the row once the broker confirms, which may come after the consumer applied it.
      const published = async () =>
        (
          await db.query<{ published: boolean }>(
            'SELECT published_at IS NOT NULL AS published FROM outbox WHERE id = $1',
            [eventId],
          )
        ).rows;
      await expect
        .poll(published, { ...settled, message: 'the outbox row marked published' })
        .toEqual([{ published: true }]);
    } finally {
      await server.close();
      await service.close();
      await bus.close();
      await broker.deleteQueues([queue]);
      await broker.close();
    }
  });
});

describe('readinessOf', () => {
  it('when the bus is closed, then a check fails saying so; without a bus, the database alone counts', async () => {
    const database = await openTestDatabase();
    const db = database.db('readiness');
    const bus = createInProcessBus({ logger });
    try {
      const run = (checks: Array<() => Promise<void>>) => Promise.all(checks.map((check) => check()));
      await expect(run(readinessOf({ db, bus }))).resolves.toBeDefined();
      await bus.close();
      await expect(run(readinessOf({ db, bus }))).rejects.toThrow('not connected to RabbitMQ');
      await expect(run(readinessOf({ db }))).resolves.toBeDefined();
    } finally {
      await db.close();
      await database.drop();
    }
  });
});

/** Runs a fixture entry point as `npm start` / `npm run migrate` would; its exit code and output. */
function runFixture(entry: string, env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ['--conditions=tolk-source', '--import', 'tsx', path.join(import.meta.dirname, 'fixture', entry)],
    { cwd: ROOT, env: { PATH: process.env['PATH'], ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

describe('runService and runMigrations', () => {
  it('when the configuration is incomplete, then the process prints every problem and exits 1', async () => {
    const run = runFixture('echo-start.ts', { AMQP_URL: 'http://nope' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('DATABASE_URL: is required but not set');
    expect(run.output()).toContain('AMQP_URL: must be a URL starting with amqp:// or amqps://');
  });

  it.skipIf(!realServers().postgres || !realServers().rabbitmq)(
    'when started on Postgres and RabbitMQ, then it migrates, serves until SIGTERM and exits 0; migrate alone exits 0',
    async () => {
      const database = await openTestDatabase();
      const schema = `echo_${randomBytes(4).toString('hex')}`;
      const env = {
        DATABASE_URL: database.url,
        AMQP_URL: inject('infrastructure').amqpUrl,
        INTERNAL_JWT_SECRET: 'x'.repeat(32),
        ECHO_SCHEMA: schema,
        LOG_LEVEL: 'info',
      };
      try {
        const migrated = runFixture('echo-migrate.ts', env);
        expect(await migrated.exited).toBe(0);
        expect(migrated.output()).toContain(`${schema} schema up to date (1 migration(s) applied)`);

        const port = await freePort();
        const started = runFixture('echo-start.ts', { ...env, PORT: String(port) });
        await expect
          .poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status, {
            ...settled,
            message: 'ready',
          })
          .toBe(200);
        started.child.kill('SIGTERM');
        expect(await started.exited).toBe(0);
        expect(started.output()).toContain('token-service shutting down');
      } finally {
        await database.drop();
      }
    },
  );
});
