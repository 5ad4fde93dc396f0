import { ConfigError } from '@tolk/config';
import { listenExpressApp } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { createGatewayApp } from './app.js';
import { loadGatewayConfig } from './config.js';

const SHUTDOWN_GRACE_MS = 10_000;

const config = (() => {
  try {
    return loadGatewayConfig();
  } catch (err) {
    // Every configuration problem, one per line; no logger exists yet.
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
})();
const logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
const gateway = createGatewayApp({ config, logger });

// Idle connections are kept longer than the load balancers in front keep theirs (express-server.ts).
const server = await listenExpressApp(gateway.app, config.PORT, config.HOST);
const metricsServer =
  config.METRICS_PORT === 0
    ? undefined
    : await listenExpressApp(gateway.metricsApp, config.METRICS_PORT, config.HOST);
logger.info(
  {
    port: config.PORT,
    host: config.HOST,
    metricsPort: metricsServer ? config.METRICS_PORT : 'off',
    upstreams: config.UPSTREAMS,
    redis: Boolean(config.REDIS_URL),
    amqp: Boolean(config.AMQP_URL),
  },
  'gateway listening',
);
// Not awaited: it waits for RabbitMQ, and until then cached memberships still expire by TTL.
gateway.startConsumers().catch((err: unknown) => {
  logger.error({ err }, 'membership-cache evictions could not start; cached answers expire by TTL only');
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  // Stop accepting, let requests in flight finish, then cut whatever is left.
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  // A scrape is short and can be repeated: nothing to wait for.
  metricsServer?.closeAllConnections();
  metricsServer?.close();
  const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  force.unref();
  await closed;
  await gateway.close();
  logger.info('stopped');
  process.exit(0);
}

process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
