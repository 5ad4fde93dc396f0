import { defineService } from '@tolk/service';
import { createByokService } from './app.js';
import { configSchema } from './config.js';

/** byok-service: users' AI provider keys, encrypted under the master keys; consumes UserDeleted. */
export const byokService = defineService('byok', {
  schema: 'byok',
  migrations: new URL('../migrations', import.meta.url),
  config: configSchema,
  // It publishes no events.
  outbox: false,
  create: createByokService,
});
