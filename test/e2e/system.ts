/**
 * The system as a user meets it, for end-to-end tests: the real gateway in front of the real
 * identity- and project-service — and with `sources`, source- and locale-service — (events
 * through the outbox and RabbitMQ), on real Postgres, RabbitMQ and Redis, each in a database of
 * this test file's own — or, where the run has none, PGlite, the in-process bus and the gateway's
 * in-memory caches. Stand-ins for services not under test are plain HTTP handlers.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, inject } from 'vitest';
import { PRINCIPAL_HEADER, type EventEnvelope, type Principal, type ServiceName } from '@tolk/contracts';
import type { Db } from '@tolk/db';
import { createGatewayApp, loadGatewayConfig } from '@tolk/gateway';
import { createPrincipalVerifier } from '@tolk/http';
import { createLogger, runWithRequestId } from '@tolk/logger';
import { composeServices } from '@tolk/service';
import {
  TEST_PASSWORD_SCRYPT_N,
  listen,
  openTestBroker,
  openTestDatabase,
  request,
  testRedisUrl,
  type TestDatabase,
} from '@tolk/testing';
import { SERVICES } from '../../scripts/services.js';

export async function startSystem(
  options: {
    /** Extra identity-service settings (e.g. a short device-login poll interval). */
    identityEnv?: Record<string, string>;
    /** Extra locale-service settings (e.g. a tiny time budget of memory's near-match search). */
    localeEnv?: Record<string, string>;
    /** Wraps project-service, e.g. to count the requests that reach it. */
    wrapProjectService?: (app: RequestListener) => RequestListener;
    /** Wraps a service (project, source, locale, token, byok), e.g. to lose one of its answers. */
    wrapServices?: Partial<
      Record<Exclude<ServiceName, 'identity'>, (app: RequestListener) => RequestListener>
    >;
    /** Stand-ins for services not under test. */
    standIns?: Partial<Record<Exclude<ServiceName, 'identity' | 'project'>, RequestListener>>;
    /** Extra gateway settings. */
    gatewayEnv?: Record<string, string>;
    /** Starts the gateway's event consumers (cache evictions); by default with `tokens`. */
    gatewayConsumers?: boolean;
    /** Runs the real source- and locale-service, consuming events on queues of their own. */
    sources?: boolean;
    /** Runs the real token-service (and the gateway's token revocation consumer). */
    tokens?: boolean;
    /** Runs the real byok-service, with a master key of the test's own. */
    byok?: boolean;
    /** Every log line of every process, at debug level, into `logLines`. */
    captureLogs?: boolean;
    /** Fills the system's database before its services migrate and start (a previous release's). */
    restore?: (database: TestDatabase) => Promise<void>;
  } = {},
) {
  const infrastructure = inject('infrastructure');
  const internalSecret = randomUUID() + randomUUID();
  const logLines: string[] = [];
  const silent = options.captureLogs
    ? createLogger({ name: 'e2e', level: 'debug' }, { write: (line: string) => void logLines.push(line) })
    : createLogger({ name: 'e2e', level: 'silent' });
  /** Every request that reached a service: which, the method, the path, the principal it carried. */
  const upstreamRequests: UpstreamRequest[] = [];
  const verifyPrincipal = createPrincipalVerifier(internalSecret);
  const observed =
    (service: string, app: RequestListener): RequestListener =>
    (req, res) => {
      const header = req.headers[PRINCIPAL_HEADER];
      const entry: UpstreamRequest = { service, method: req.method ?? '', path: req.url ?? '' };
      upstreamRequests.push(entry);
      if (typeof header === 'string') {
        void verifyPrincipal(header).then((principal) => {
          entry.principal = principal;
        });
      }
      app(req, res);
    };
  const cleanups: Array<() => Promise<unknown>> = [];
  const services = new Map<ServiceName, ServiceServer>();
  /** The database of each service of this system that has an outbox. */
  const outboxDbs = new Map<OutboxService, Db>();
  /** A service observed (and wrapped, if asked) on a port of its own, which stop/start keep. */
  async function serve(name: Exclude<ServiceName, 'identity'>, app: RequestListener) {
    const wrapped =
      (name === 'project' ? options.wrapProjectService : undefined) ?? options.wrapServices?.[name];
    const server = await listenRestartable(observed(name, wrapped?.(app) ?? app));
    services.set(name, server);
    cleanups.push(() => server.stop());
    return server;
  }

  const database = await openTestDatabase(infrastructure.postgresUrl);
  cleanups.push(() => database.drop());
  await options.restore?.(database);
  const broker = await openTestBroker({ amqpUrl: infrastructure.amqpUrl, logger: silent });
  cleanups.push(() => broker.close());
  // The services' queues go once the bus has closed (cleanups run last first): deleted under its
  // consumers, a queue would be declared again by the bus taking its consumer back.
  const consumerQueues: string[] = [];
  cleanups.push(() => broker.deleteQueues(consumerQueues));
  const bus = broker.bus({ logger: silent, producer: 'project-service' });
  cleanups.push(() => bus.close());

  const running = new Set<ServiceName>([
    'identity',
    'project',
    ...(options.sources ? (['source', 'locale'] as const) : []),
    ...(options.tokens ? (['token'] as const) : []),
    ...(options.byok ? (['byok'] as const) : []),
  ]);
  const definitions = SERVICES.filter((definition) => running.has(definition.name));
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { services: opened, urls: serviceUrls } = await composeServices(definitions, {
    async listen(name, app) {
      if (name !== 'identity') return (await serve(name, app)).url;
      // identity-service is neither observed nor wrapped.
      const server = await listen(app);
      cleanups.push(() => server.close());
      return server.url;
    },
    // What the services' configurations read; each takes the settings it knows.
    env: ({ name }) => ({
      DATABASE_URL: database.url,
      AMQP_URL: broker.url,
      INTERNAL_JWT_SECRET: internalSecret,
      JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      BYOK_MASTER_KEYS: `e2e:${randomBytes(32).toString('base64')}`,
      PASSWORD_SCRYPT_N: TEST_PASSWORD_SCRYPT_N,
      ...(name === 'identity' ? options.identityEnv : {}),
      ...(name === 'locale' ? options.localeEnv : {}),
    }),
    db(definition) {
      const db = database.db(definition.schema);
      cleanups.push(() => db.close());
      if (definition.outbox && definition.name !== 'identity')
        outboxDbs.set(definition.name as OutboxService, db);
      return db;
    },
    bus,
    logger: () => silent,
  });
  // Each service's outbox relayed, and its consumer on a queue of this system's own.
  for (const service of opened) {
    await service.relay(database.relayOptions);
    cleanups.push(() => service.close());
    if (!service.consumes) continue;
    const queue = `e2e.${service.name}-service.${randomUUID()}`;
    consumerQueues.push(queue);
    await service.consume(queue);
  }

  const standInUrls: Record<string, string> = {};
  for (const [service, handler] of Object.entries(options.standIns ?? {})) {
    const standIn = await listen(handler);
    cleanups.push(() => standIn.close());
    standInUrls[`${service.toUpperCase()}_SERVICE_URL`] = standIn.url;
  }

  // Queues of this system's own: a durable queue shared with other test files' gateways would
  // hand them this system's events.
  const gatewayQueues = {
    MEMBERSHIP_EVENTS_QUEUE: `e2e.gateway.membership.${randomUUID()}`,
    TOKEN_EVENTS_QUEUE: `e2e.gateway.tokens.${randomUUID()}`,
    USER_EVENTS_QUEUE: `e2e.gateway.users.${randomUUID()}`,
  };
  cleanups.push(() => broker.deleteQueues(Object.values(gatewayQueues)));
  const gateway = createGatewayApp({
    config: loadGatewayConfig({
      JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      INTERNAL_JWT_SECRET: internalSecret,
      ...serviceUrls,
      ...standInUrls,
      REDIS_URL: testRedisUrl(),
      RATE_LIMIT_KEY_PREFIX: `tolk-e2e:${randomUUID()}`,
      MEMBERSHIP_CACHE_KEY_PREFIX: `tolk-e2e:${randomUUID()}:membership`,
      TOKEN_CACHE_KEY_PREFIX: `tolk-e2e:${randomUUID()}:tokens`,
      ...gatewayQueues,
      ...(options.tokens && broker.real ? { AMQP_URL: broker.url } : {}),
      ...options.gatewayEnv,
    }),
    logger: silent,
    // Without RabbitMQ, the gateway consumes its evictions from the in-process bus, as embedded.
    ...(options.tokens && !broker.real ? { bus } : {}),
  });
  cleanups.push(() => gateway.close());
  if (options.gatewayConsumers ?? options.tokens) await gateway.startConsumers();
  const gatewayServer = await listen(gateway.app);
  cleanups.push(() => gatewayServer.close());
  const base = gatewayServer.url;
  const metricsServer = await listen(gateway.metricsApp);
  cleanups.push(() => metricsServer.close());

  function requireService(name: ServiceName): ServiceServer {
    const server = services.get(name);
    if (!server) throw new Error(`startSystem: ${name} is not running in this system`);
    return server;
  }

  return {
    base,
    /** The gateway's METRICS_PORT. */
    metricsUrl: metricsServer.url,
    infrastructure,
    ...gatewayClient(base),
    /** With `captureLogs`: every log line of every process. */
    logLines,
    upstreamRequests,
    /** The database of the system (every service's schema). */
    databaseUrl: database.url,

    /**
     * The events a service of this system wrote to its outbox (published or not), oldest first,
     * with the request id each was written under. Its consumers' queues are bound to the exchange
     * every test file running beside this one publishes to: an event of this system is told from
     * theirs by its id.
     */
    async outboxEvents(service: OutboxService): Promise<OutboxEvent[]> {
      const db = outboxDbs.get(service);
      if (!db) throw new Error(`startSystem: ${service}-service is not running in this system`);
      const { rows } = await db.query<{ id: string; type: string; request_id: string | null }>(
        'SELECT id, type, request_id FROM outbox ORDER BY seq',
      );
      return rows.map((row) => ({ id: row.id, type: row.type, requestId: row.request_id }));
    },

    /**
     * Publishes an event under a request id as a service of another test file would: on the
     * exchange every run shares (or the in-process bus), so this system's consumers get it too.
     */
    publishEvent(envelope: EventEnvelope, requestId: string): Promise<void> {
      return runWithRequestId(requestId, () => bus.publish(envelope));
    },

    /**
     * Stops a service as a crash would: its port refuses connections (the gateway answers 503)
     * until `startService` listens on it again.
     */
    async stopService(name: Exclude<ServiceName, 'identity'>): Promise<void> {
      await requireService(name).stop();
    },
    async startService(name: Exclude<ServiceName, 'identity'>): Promise<void> {
      await requireService(name).start();
    },

    /** Stops everything, last started first. */
    async close(): Promise<void> {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    },
  };
}

export type System = Awaited<ReturnType<typeof startSystem>>;

type OutboxService = 'project' | 'source' | 'locale' | 'token';
export type OutboxEvent = { id: string; type: string; requestId: string | null };

/** Calls through the gateway at `base`, as a user would; shared with the embedded harness. */
export function gatewayClient(base: string) {
  const call = (method: string, path: string, token?: string, body?: unknown) =>
    request(`${base}${path}`, { method, body, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return {
    call,
    /** Signs up a new user through the gateway. */
    async signUp(): Promise<{ email: string; token: string; userId: string }> {
      const email = `user-${randomUUID()}@example.com`;
      const response = await call('POST', '/v1/auth/signup', undefined, {
        email,
        password: 'correct horse battery',
      });
      expect(response.status).toBe(201);
      return { email, token: response.body.accessToken, userId: response.body.user.userId };
    },
  };
}

export type UpstreamRequest = { service: string; method: string; path: string; principal?: Principal };

type ServiceServer = Awaited<ReturnType<typeof listenRestartable>>;

/** Like @tolk/testing's listen, and `stop` then `start` again keeps the port (and the URL). */
async function listenRestartable(handler: RequestListener) {
  const server = createServer(handler);
  const listenOn = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listenOn(0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    start: () => listenOn(port),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
