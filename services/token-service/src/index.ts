import { fileURLToPath } from 'node:url';
import { defineService } from '@tolk/service';
import { createTokenService } from './app.js';
import { configSchema } from './config.js';
import { tokenConsumer } from './entry-points/messaging/token-consumer.js';

/** token-service: project tokens; consumes project and user events to keep its own copy. */
export const tokenService = defineService({
  name: 'token',
  schema: 'tokens',
  migrations: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: configSchema,
  outbox: true,
  consumes: true,
  create(deps) {
    const { app, sync } = createTokenService(deps);
    return { app, consumer: tokenConsumer(sync) };
  },
});
