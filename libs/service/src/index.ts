/**
 * The frame every Tolk service runs in: its configuration, its own schema and migrations, the
 * outbox relay to the bus, its event consumers, its HTTP app and its shutdown. A service defines
 * what is its own (`defineService`); the same definition runs as a process of its own
 * (`runService`, `runMigrations`), several in one process (the embedded mode) and in tests, with
 * a database and a bus given (`openService`).
 */
import { fileURLToPath } from 'node:url';
import express, { type Express, type Router } from 'express';
import type { z } from 'zod';
import {
  busTablesSql,
  createRabbitBus,
  startOutboxRelay,
  subscribeOnce,
  type Bus,
  type EventConsumer,
  type OutboxRelay,
} from '@tolk/bus';
import { loadConfig, loadMigrationConfig } from '@tolk/config';
import type { ServiceName } from '@tolk/contracts';
import { createPgDb, migrate, type Db } from '@tolk/db';
import {
  createInternalCallerSigner,
  createServiceApp,
  runProcess,
  serveUntilSignalled,
  type ServiceAppOptions,
} from '@tolk/http';
import { createLogger, type Logger } from '@tolk/logger';

/** What every service's configuration holds that the frame reads. */
export type ServiceConfig = { INTERNAL_JWT_SECRET: string };

/** What a service's composition is given: its configuration, its schema's `Db`, the bus. */
export type ServiceDeps<C> = {
  config: Readonly<C>;
  /** Bound to the service's schema and migrated. */
  db: Db;
  bus: Bus;
  logger: Logger;
  /** The clock of every expiry and timestamp; Date.now unless given. */
  now: () => number;
  /** Signs this service's calls to another's internal API (`token-service` as the caller). */
  signInternalCaller: () => Promise<string>;
};

/**
 * A composed service: its routes, what its consumer does with events, and what its app needs
 * beyond the frame's defaults. The frame builds the app around the routes (createServiceApp:
 * health, readiness of its database and, given an outbox, of the bus, metrics, request ids,
 * the internal caller check, errors).
 */
export type ServiceParts = Pick<
  ServiceAppOptions,
  'bodyLimitBytes' | 'onJsonBody' | 'onRequest' | 'parseLater'
> & {
  router: Router;
  /** Each event applies once; the frame subscribes it on the service's queue. */
  consumer?: EventConsumer;
  /** Stops the composition's own background work; called when the service closes, before its database. */
  stop?: () => Promise<void>;
};

/** What a service declares of itself (`defineService`). */
export type ServiceDeclaration<C> = {
  /** The one schema the service owns. */
  schema: string;
  /** Its plain SQL migrations (next to src/ and dist/ alike): a path or a file: URL. */
  migrations: string | URL;
  /** Its whole configuration, read from the environment. */
  config: z.ZodType<C>;
  /**
   * It writes events to an outbox in its schema, which a relay sends over the bus (true unless
   * said). The frame creates the outbox table: the bus's, never a copy in its migrations.
   */
  outbox?: boolean;
  /**
   * It consumes events: its composition returns a `consumer` (true unless said). The frame
   * creates the table of the events each consumer has processed, the bus's too.
   */
  consumes?: boolean;
  /** The composition root: repositories, use cases, routes and consumers. */
  create(deps: ServiceDeps<C>): ServiceParts | Promise<ServiceParts>;
};

export type ServiceDefinition<C> = Required<Omit<ServiceDeclaration<C>, 'migrations'>> & {
  name: ServiceName;
  migrations: string;
};

/** The definition of the service `name`: its declaration, with the frame's defaults. */
export function defineService<C extends ServiceConfig>(
  name: ServiceName,
  declaration: ServiceDeclaration<C>,
): ServiceDefinition<C> {
  const { migrations } = declaration;
  return {
    name,
    outbox: true,
    consumes: true,
    ...declaration,
    migrations: migrations instanceof URL ? fileURLToPath(migrations) : migrations,
  };
}

/** The process name, its logger name and the producer of its events: `token-service`. */
export function processName(definition: { name: ServiceName }): string {
  return `${definition.name}-service`;
}

/** A service composed on a given database and bus, its schema migrated. */
export type OpenService<C> = {
  name: ServiceName;
  /** Its app, never listening. */
  app: Express;
  consumer?: EventConsumer;
  config: Readonly<C>;
  db: Db;
  /** It consumes events. */
  consumes: boolean;
  /** Subscribes its consumer on `queue`, its own durable queue (`token-service`) by default. */
  consume(queue?: string): Promise<void>;
  /** Starts relaying the outbox to the bus (nothing for a service without one). */
  relay(options?: { singleRelay?: boolean; pollIntervalMs?: number }): Promise<void>;
  /** Stops the relay and the service's background work; the database and the bus are the caller's to close. */
  close(): Promise<void>;
};

/**
 * Migrates the service's schema in `db` and composes it, configured from `config` or `env`. Its
 * consumers and relay start when asked: the embedded mode subscribes every consumer before any
 * relay sends, since the in-process bus delivers only to the consumers subscribed.
 */
export async function openService<C extends ServiceConfig>(
  definition: ServiceDefinition<C>,
  options: {
    config?: Readonly<C>;
    env?: Record<string, string | undefined>;
    db: Db;
    bus: Bus;
    logger: Logger;
    now?: () => number;
  },
): Promise<OpenService<C>> {
  const { db, bus, logger } = options;
  const config = options.config ?? loadConfig(definition.config, options.env ?? {});
  await migrateSchema(definition, db, logger);
  const name = processName(definition);
  const { router, consumer, stop, ...http } = await definition.create({
    config,
    db,
    bus,
    logger,
    now: options.now ?? Date.now,
    signInternalCaller: createInternalCallerSigner(config.INTERNAL_JWT_SECRET, name),
  });
  const app = createServiceApp({
    ...http,
    logger,
    router,
    internalSecret: config.INTERNAL_JWT_SECRET,
    readiness: readinessOf({ db, bus: definition.outbox ? bus : undefined }),
  });
  if ((consumer !== undefined) !== definition.consumes) {
    throw new Error(
      `${name}: its definition says consumes: ${String(definition.consumes)}, ` +
        `but its composition ${consumer ? 'returns' : 'returns no'} consumer`,
    );
  }
  const relays: OutboxRelay[] = [];
  return {
    app,
    consumer,
    name: definition.name,
    config,
    db,
    consumes: consumer !== undefined,
    async consume(queue = name) {
      if (consumer) await subscribeOnce({ ...consumer, bus, db, queue, logger });
    },
    async relay(relayOptions = {}) {
      if (definition.outbox) relays.push(await startOutboxRelay({ db, bus, logger, ...relayOptions }));
    },
    async close() {
      for (const relay of relays.splice(0)) await relay.stop();
      await stop?.();
    },
  };
}

/**
 * Several services in one process (the embedded mode, the end-to-end tests): every one listens
 * first, through `listen`, on an app that answers once all are composed, so that each is
 * configured with the others' URLs (`IDENTITY_SERVICE_URL`, ...; identity- and project-service
 * ask each other). Consumers and relays are the caller's to start, in the order it needs.
 */
export async function composeServices(
  definitions: readonly ServiceDefinition<ServiceConfig>[],
  options: {
    /** Listens for a service; answers its URL. */
    listen: (name: ServiceName, app: Express) => Promise<string>;
    /** Each service's environment; the services' URLs are added to it. */
    env: (definition: ServiceDefinition<ServiceConfig>) => Record<string, string | undefined>;
    db: (definition: ServiceDefinition<ServiceConfig>) => Db;
    bus: Bus;
    logger: (definition: ServiceDefinition<ServiceConfig>) => Logger;
  },
): Promise<{ services: OpenService<ServiceConfig>[]; urls: Record<string, string> }> {
  const apps = new Map<ServiceName, Express>();
  const urls: Record<string, string> = {};
  for (const { name } of definitions) {
    const front = express().use((req, res, next) => {
      const app = apps.get(name);
      return app ? app(req, res, next) : next();
    });
    urls[`${name.toUpperCase()}_SERVICE_URL`] = await options.listen(name, front);
  }
  const services: OpenService<ServiceConfig>[] = [];
  for (const definition of definitions) {
    const service = await openService(definition, {
      env: { ...options.env(definition), ...urls },
      db: options.db(definition),
      bus: options.bus,
      logger: options.logger(definition),
    });
    services.push(service);
    apps.set(definition.name, service.app);
  }
  return { services, urls };
}

/**
 * `npm start` of a service: configuration from the environment, its schema migrated on its
 * Postgres database, the outbox relayed to RabbitMQ, its consumers subscribed, its app listening
 * until SIGINT or SIGTERM. A failure to start is printed and exits 1.
 */
export function runService<
  C extends ServiceConfig & {
    PORT: number;
    HOST: string;
    DATABASE_URL: string;
    AMQP_URL: string;
    LOG_LEVEL: string;
  },
>(definition: ServiceDefinition<C>): void {
  const name = processName(definition);
  runProcess(async () => {
    const config = loadConfig(definition.config, process.env);
    const logger = createLogger({ name, level: config.LOG_LEVEL });
    const db = createPgDb({
      url: config.DATABASE_URL,
      schema: definition.schema,
      logger,
      applicationName: name,
    });
    // Connects in the background; the outbox keeps events, and the durable queues deliveries,
    // while RabbitMQ is away.
    const bus = createRabbitBus({ url: config.AMQP_URL, logger, producer: name });
    const service = await openService(definition, { config, db, bus, logger });
    await service.relay();
    // Resolves once consuming; until RabbitMQ is up, requests still work.
    void service.consume().catch((err: unknown) => logger.error({ err }, 'subscribing to events failed'));
    await serveUntilSignalled({
      name,
      app: service.app,
      port: config.PORT,
      host: config.HOST,
      logger,
      // Whatever the relay has not sent yet stays in the outbox for the next start.
      release: async () => {
        await service.close();
        await bus.close();
        await db.close();
      },
    });
  });
}

/** What migrating a service's schema needs of its definition. */
export type MigrationDefinition = Pick<
  ServiceDefinition<ServiceConfig>,
  'name' | 'schema' | 'migrations' | 'outbox' | 'consumes'
>;

/**
 * Migrates a service's schema in `db`: the bus's tables it uses (idempotent, at every run), then
 * its own migrations. Answers the names of the migrations applied.
 */
export function migrateSchema(definition: MigrationDefinition, db: Db, logger?: Logger): Promise<string[]> {
  return migrate(db, definition.migrations, logger, { before: busTablesSql(definition) });
}

/** Applies a service's migrations to the database at `url`; the names of those applied. */
export async function migrateService(
  definition: MigrationDefinition,
  url: string,
  logger: Logger,
): Promise<string[]> {
  const db = createPgDb({ url, schema: definition.schema, logger });
  try {
    const applied = await migrateSchema(definition, db, logger);
    logger.info(
      { applied },
      `${definition.schema} schema up to date (${applied.length} migration(s) applied)`,
    );
    return applied;
  } finally {
    await db.close();
  }
}

/** `npm run migrate` of a service: applies its migrations to DATABASE_URL, then exits. */
export function runMigrations(definition: MigrationDefinition): void {
  runProcess(async () => {
    const config = loadMigrationConfig();
    const logger = createLogger({ name: processName(definition), level: config.LOG_LEVEL });
    await migrateService(definition, config.DATABASE_URL, logger);
  });
}

/**
 * The readiness checks of a service's app: its database answers and, given the bus its outbox
 * sends over, that bus is connected.
 */
export function readinessOf(deps: {
  db: Pick<Db, 'ping'>;
  bus?: Pick<Bus, 'isConnected'>;
}): Array<() => Promise<void>> {
  const { db, bus } = deps;
  return [
    () => db.ping(),
    ...(bus
      ? [
          async () => {
            if (!bus.isConnected()) throw new Error('not connected to RabbitMQ');
          },
        ]
      : []),
  ];
}
