import { fileURLToPath } from 'node:url';
import { defineService } from '@tolk/service';
import { createTokenService } from './app.js';
import { configSchema } from './config.js';
import { subscribeTokenConsumer } from './entry-points/messaging/token-consumer.js';

/** token-service: project tokens; consumes project and user events to keep its own copy. */
export const tokenService = defineService({
  name: 'token',
  schema: 'tokens',
  migrations: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: configSchema,
  outbox: true,
  create(deps) {
    const { app, sync } = createTokenService(deps);
    const { bus, db, logger } = deps;
    return { app, consume: (queue) => subscribeTokenConsumer({ bus, db, sync, logger, queue }) };
  },
});
