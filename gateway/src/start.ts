import { listenExpressApp, runProcess, serveUntilSignalled } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { createGatewayApp } from './app.js';
import { loadGatewayConfig } from './config.js';

runProcess(async () => {
  const config = loadGatewayConfig();
  const logger = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
  const gateway = createGatewayApp({ config, logger });

  const metricsServer =
    config.METRICS_PORT === 0
      ? undefined
      : await listenExpressApp(gateway.metricsApp, config.METRICS_PORT, config.HOST);
  // Idle connections are kept longer than the load balancers in front keep theirs (express-server.ts).
  await serveUntilSignalled({
    name: 'gateway',
    app: gateway.app,
    port: config.PORT,
    host: config.HOST,
    logger,
    release: async () => {
      // A scrape is short and can be repeated: nothing to wait for.
      metricsServer?.closeAllConnections();
      metricsServer?.close();
      await gateway.close();
      logger.info('stopped');
    },
  });
  logger.info(
    {
      metricsPort: metricsServer ? config.METRICS_PORT : 'off',
      upstreams: config.UPSTREAMS,
      redis: Boolean(config.REDIS_URL),
      amqp: Boolean(config.AMQP_URL),
    },
    'gateway configured',
  );
  // Not awaited: it waits for RabbitMQ, and until then cached memberships still expire by TTL.
  gateway.startConsumers().catch((err: unknown) => {
    logger.error({ err }, 'membership-cache evictions could not start; cached answers expire by TTL only');
  });
});
