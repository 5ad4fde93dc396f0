import { fileURLToPath } from 'node:url';
import { defineService } from '@tolk/service';
import { createIdentityApp } from './app.js';
import { configSchema } from './config.js';

/** identity-service: accounts, sessions and the device login; consumes no events. */
export const identityService = defineService({
  name: 'identity',
  schema: 'identity',
  migrations: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: configSchema,
  outbox: true,
  consumes: false,
  create: (deps) => ({ app: createIdentityApp(deps) }),
});
