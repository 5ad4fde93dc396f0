/**
 * Tolk in one Node process with nothing installed (DESIGN §8, the embedded mode): every service
 * and the gateway on their usual ports, each service's schema and migrations unchanged in PGlite
 * (real Postgres in WebAssembly) persisted under the data directory, the in-process bus with the
 * same outbox and consumer semantics, and the gateway's caches and rate limits in memory.
 */
import type http from 'node:http';
import path from 'node:path';
import { createInProcessBus, type Bus } from '@tolk/bus';
import { SERVICE_PORTS } from '@tolk/contracts';
import { openEmbeddedPostgres } from '@tolk/db';
import { createGatewayApp, loadGatewayConfig } from '@tolk/gateway';
import { listenExpressApp } from '@tolk/http';
import { collectProcessMetrics, createLogger, type Logger } from '@tolk/logger';
import { composeServices, processName } from '@tolk/service';
import { SERVICES } from './services.js';

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
  /** Extra settings of every service (a test system's cheaper password hashes). */
  serviceEnv?: Record<string, string>;
  /** Where log lines go (stdout by default). */
  logDestination?: { write(line: string): void };
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
  const started = Date.now();

  const postgres = await openEmbeddedPostgres({ dataDir: options.dataDir });
  const bus: Bus = createInProcessBus({ logger });

  const { services, urls: serviceUrls } = await composeServices(SERVICES, {
    async listen(name, app) {
      const server = await listenExpressApp(app, options.usualPorts ? SERVICE_PORTS[name] : 0, '127.0.0.1');
      servers.push(server);
      return urlOf(server);
    },
    // What the services' configurations read; each takes the settings it knows.
    env: () => ({
      ...IN_PROCESS,
      INTERNAL_JWT_SECRET: options.secrets.internalJwtSecret,
      JWT_PRIVATE_KEY: options.secrets.jwtPrivateKey,
      LOG_LEVEL: level,
      PUBLIC_URL: options.publicUrl,
      TOLK_DATA_DIR: options.tolkDataDir,
      ...options.serviceEnv,
    }),
    db: (definition) => postgres.forSchema(definition.schema),
    bus,
    logger: (definition) => loggerFor(processName(definition)),
  });

  const gatewayLogger = loggerFor('gateway');
  const gatewayConfig = loadGatewayConfig({
    JWT_PUBLIC_KEY: options.secrets.jwtPublicKey,
    INTERNAL_JWT_SECRET: options.secrets.internalJwtSecret,
    ...serviceUrls,
    LOG_LEVEL: level,
    ...options.gatewayEnv,
  });
  const gateway = createGatewayApp({ config: gatewayConfig, logger: gatewayLogger, bus });

  // Every consumer before any relay: the in-process bus delivers only to those subscribed.
  for (const service of services) await service.consume();
  await gateway.startConsumers();
  for (const service of services) await service.relay({ singleRelay: true });

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
      for (const service of services) await service.close();
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
