/**
 * Tolk in one Node process with nothing installed (DESIGN §8, the embedded mode): every service
 * and the gateway on their usual ports, each service's schema and migrations unchanged in PGlite
 * (real Postgres in WebAssembly) persisted under the data directory, the in-process bus with the
 * same outbox and consumer semantics, and the gateway's caches and rate limits in memory.
 */
import type http from 'node:http';
import path from 'node:path';
import { createInProcessBus, startOutboxRelay, type Bus, type OutboxRelay } from '@tolk/bus';
import { SERVICE_PORTS } from '@tolk/contracts';
import { migrate, openEmbeddedPostgres, type Db } from '@tolk/db';
import express, { type Express } from 'express';
import { listenExpressApp } from '@tolk/http';
import { collectProcessMetrics, createLogger, type Logger } from '@tolk/logger';
import { createGatewayApp } from '../gateway/src/app.js';
import { loadGatewayConfig } from '../gateway/src/config.js';
import * as byokService from '../services/byok-service/src/app.js';
import { loadByokConfig } from '../services/byok-service/src/config.js';
import { subscribeByokConsumer } from '../services/byok-service/src/entry-points/messaging/byok-consumer.js';
import { resolveMasterKeys } from '../services/byok-service/src/master-key-source.js';
import * as identityService from '../services/identity-service/src/app.js';
import { loadIdentityConfig } from '../services/identity-service/src/config.js';
import * as localeService from '../services/locale-service/src/app.js';
import { loadLocaleConfig } from '../services/locale-service/src/config.js';
import { subscribeLocaleConsumer } from '../services/locale-service/src/entry-points/messaging/locale-consumer.js';
import * as projectService from '../services/project-service/src/app.js';
import { loadProjectConfig } from '../services/project-service/src/config.js';
import { subscribeProjectConsumer } from '../services/project-service/src/entry-points/messaging/project-consumer.js';
import * as sourceService from '../services/source-service/src/app.js';
import { loadSourceConfig } from '../services/source-service/src/config.js';
import { subscribeSourceConsumer } from '../services/source-service/src/entry-points/messaging/source-consumer.js';
import * as tokenService from '../services/token-service/src/app.js';
import { loadTokenConfig } from '../services/token-service/src/config.js';
import { subscribeTokenConsumer } from '../services/token-service/src/entry-points/messaging/token-consumer.js';

// The services' configurations name their database and broker; here both are in this process.
const IN_PROCESS = { DATABASE_URL: 'postgres://embedded/tolk', AMQP_URL: 'amqp://embedded' };

export type EmbeddedOptions = {
  /** Where PGlite keeps the database; undefined: in memory (tests). */
  dataDir?: string;
  /** TOLK_DATA_DIR: the development BYOK master key lives there too. */
  tolkDataDir: string;
  secrets: { jwtPrivateKey: string; jwtPublicKey: string; internalJwtSecret: string };
  publicUrl: string;
  /** The gateway's port and address; the services listen on 127.0.0.1. */
  port: number;
  host: string;
  /** true: every service on its usual port (8081-8086); false: any free port (tests). */
  usualPorts: boolean;
  logLevel: string;
  /** Extra gateway settings. */
  gatewayEnv?: Record<string, string>;
  /** Where log lines go (stdout by default). */
  logDestination?: { write(line: string): void };
  /** The scrypt cost of new password hashes: production's unless a test asks for less. */
  passwordCost?: identityService.PasswordCost;
};

function urlOf(server: http.Server): string {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('server is not listening on TCP');
  return `http://127.0.0.1:${address.port}`;
}

export async function startEmbeddedTolk(options: EmbeddedOptions) {
  // One process serves every app: Node's own numbers are the whole of Tolk's, not the first app's.
  collectProcessMetrics('tolk');
  const level = options.logLevel;
  const loggerFor = (name: string): Logger =>
    options.logDestination
      ? createLogger({ name, level }, options.logDestination)
      : createLogger({ name, level });
  const logger = loggerFor('tolk');
  const servers: http.Server[] = [];
  const relays: OutboxRelay[] = [];
  const started = Date.now();

  const postgres = await openEmbeddedPostgres({ dataDir: options.dataDir });
  const bus: Bus = createInProcessBus({ logger });
  const common = {
    ...IN_PROCESS,
    INTERNAL_JWT_SECRET: options.secrets.internalJwtSecret,
    LOG_LEVEL: level,
    PUBLIC_URL: options.publicUrl,
  };
  async function database(schema: string, migrations: string, name: string): Promise<Db> {
    const db = postgres.forSchema(schema);
    await migrate(db, migrations, loggerFor(name));
    return db;
  }
  async function serve(name: keyof typeof SERVICE_PORTS, app: Express): Promise<string> {
    const server = await listenExpressApp(app, options.usualPorts ? SERVICE_PORTS[name] : 0, '127.0.0.1');
    servers.push(server);
    return urlOf(server);
  }

  // identity-service and project-service ask each other (emails; the projects an account deletion
  // takes): identity-service listens first and is given its app once project-service's URL is known.
  let identityApp: Express | undefined = undefined;
  const identityUrl = await serve(
    'identity',
    express().use((req, res, next) => (identityApp ? identityApp(req, res, next) : next())),
  );
  const identityDb = await database(
    identityService.IDENTITY_SCHEMA,
    identityService.MIGRATIONS_DIR,
    'identity-service',
  );

  const projectDb = await database(
    projectService.PROJECTS_SCHEMA,
    projectService.MIGRATIONS_DIR,
    'project-service',
  );
  const projectUrl = await serve(
    'project',
    projectService.createProjectApp({
      config: loadProjectConfig({ ...common, IDENTITY_SERVICE_URL: identityUrl }),
      db: projectDb,
      bus,
      logger: loggerFor('project-service'),
    }),
  );

  identityApp = identityService.createIdentityApp({
    config: loadIdentityConfig({
      ...common,
      JWT_PRIVATE_KEY: options.secrets.jwtPrivateKey,
      PROJECT_SERVICE_URL: projectUrl,
    }),
    db: identityDb,
    bus,
    logger: loggerFor('identity-service'),
    passwordCost: options.passwordCost,
  });

  const sourceDb = await database(
    sourceService.SOURCE_SCHEMA,
    sourceService.MIGRATIONS_DIR,
    'source-service',
  );
  const source = sourceService.createSourceService({
    config: loadSourceConfig({ ...common, PROJECT_SERVICE_URL: projectUrl }),
    db: sourceDb,
    bus,
    logger: loggerFor('source-service'),
  });
  const sourceUrl = await serve('source', source.app);

  const localeDb = await database(
    localeService.LOCALES_SCHEMA,
    localeService.MIGRATIONS_DIR,
    'locale-service',
  );
  const locale = localeService.createLocaleService({
    config: loadLocaleConfig({ ...common, PROJECT_SERVICE_URL: projectUrl, SOURCE_SERVICE_URL: sourceUrl }),
    db: localeDb,
    bus,
    logger: loggerFor('locale-service'),
  });
  const localeUrl = await serve('locale', locale.app);

  const tokenDb = await database(tokenService.TOKENS_SCHEMA, tokenService.MIGRATIONS_DIR, 'token-service');
  const tokens = tokenService.createTokenService({
    config: loadTokenConfig({ ...common, PROJECT_SERVICE_URL: projectUrl }),
    db: tokenDb,
    bus,
    logger: loggerFor('token-service'),
  });
  const tokenUrl = await serve('token', tokens.app);

  const byokConfig = loadByokConfig({ ...common, TOLK_DATA_DIR: options.tolkDataDir });
  const byokDb = await database(byokService.BYOK_SCHEMA, byokService.MIGRATIONS_DIR, 'byok-service');
  const byok = byokService.createByokService({
    config: byokConfig,
    db: byokDb,
    keyring: (await resolveMasterKeys(byokConfig)).keyring,
    logger: loggerFor('byok-service'),
  });
  const byokUrl = await serve('byok', byok.app);

  const gatewayLogger = loggerFor('gateway');
  const gatewayConfig = loadGatewayConfig({
    JWT_PUBLIC_KEY: options.secrets.jwtPublicKey,
    INTERNAL_JWT_SECRET: options.secrets.internalJwtSecret,
    IDENTITY_SERVICE_URL: identityUrl,
    PROJECT_SERVICE_URL: projectUrl,
    SOURCE_SERVICE_URL: sourceUrl,
    LOCALE_SERVICE_URL: localeUrl,
    TOKEN_SERVICE_URL: tokenUrl,
    BYOK_SERVICE_URL: byokUrl,
    LOG_LEVEL: level,
    ...options.gatewayEnv,
  });
  const gateway = createGatewayApp({ config: gatewayConfig, logger: gatewayLogger, bus });

  // Every consumer before any relay: the in-process bus delivers only to those subscribed.
  await subscribeSourceConsumer({
    bus,
    db: sourceDb,
    sync: source.sync,
    logger: loggerFor('source-service'),
  });
  await subscribeLocaleConsumer({
    bus,
    db: localeDb,
    sync: locale.sync,
    refresh: locale.refresh,
    logger: loggerFor('locale-service'),
  });
  await subscribeTokenConsumer({ bus, db: tokenDb, sync: tokens.sync, logger: loggerFor('token-service') });
  await subscribeProjectConsumer({
    bus,
    db: projectDb,
    accountRemoval: projectService.createProjectAccountRemoval({
      db: projectDb,
      logger: loggerFor('project-service'),
    }),
    logger: loggerFor('project-service'),
  });
  await subscribeByokConsumer({ bus, db: byokDb, sync: byok.sync, logger: loggerFor('byok-service') });
  await gateway.startConsumers();
  for (const db of [identityDb, projectDb, sourceDb, localeDb, tokenDb]) {
    relays.push(await startOutboxRelay({ db, bus, logger, singleRelay: true }));
  }

  const gatewayServer = await listenExpressApp(gateway.app, options.port, options.host);
  servers.push(gatewayServer);
  // On this machine only, as the services' own /metrics (every one renders this whole process).
  const metricsServer =
    gatewayConfig.METRICS_PORT === 0
      ? undefined
      : await listenExpressApp(
          gateway.metricsApp,
          options.usualPorts ? gatewayConfig.METRICS_PORT : 0,
          '127.0.0.1',
        );
  if (metricsServer) servers.push(metricsServer);

  return {
    gatewayUrl: urlOf(gatewayServer),
    /** The gateway's GET /metrics (METRICS_PORT); undefined when it is 0. */
    metricsUrl: metricsServer && urlOf(metricsServer),
    startedInMs: Date.now() - started,
    async close(): Promise<void> {
      for (const server of servers.reverse()) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      for (const relay of relays) await relay.stop();
      await gateway.close();
      await bus.close();
      await postgres.close();
    },
  };
}

export type EmbeddedTolk = Awaited<ReturnType<typeof startEmbeddedTolk>>;

/** Where PGlite keeps the embedded database under the data directory. */
export function embeddedDatabaseDir(tolkDataDir: string): string {
  return path.join(tolkDataDir, 'pgdata');
}
