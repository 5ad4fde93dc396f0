import type http from 'node:http';
import type { Express } from 'express';
import { ConfigError } from '@tolk/config';
import type { Logger } from '@tolk/logger';
import { listenExpressApp } from './express-server.js';

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Listens, and on SIGINT or SIGTERM stops accepting, lets requests in flight finish (idle
 * keep-alive connections do not hold the exit; anything still open after the grace period is
 * cut), then releases the process's resources in order and exits.
 */
export async function serveUntilSignalled(options: {
  name: string;
  app: Express;
  port: number;
  host: string;
  logger: Logger;
  /** Closes what the process holds (relay, bus, database), in that order. */
  release: () => Promise<void>;
}): Promise<http.Server> {
  const { name, logger } = options;
  const server = await listenExpressApp(options.app, options.port, options.host);
  logger.info(`${name} listening on http://${options.host}:${options.port}`);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${name} shutting down`);
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    server.closeIdleConnections();
    server.close(() => {
      options.release().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'shutting down failed');
          process.exit(1);
        },
      );
    });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  return server;
}

/** Runs a process's main function; a failure to start is printed (configuration problems one per line) and exits 1. */
export function runProcess(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    // No logger may exist yet: configuration is what builds it.
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}
