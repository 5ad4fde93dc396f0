import { defineService } from '@tolk/service';
import { createIdentityService } from './app.js';
import { configSchema } from './config.js';

/** identity-service: accounts, sessions and the device login. */
export const identityService = defineService('identity', {
  schema: 'identity',
  migrations: new URL('../migrations', import.meta.url),
  config: configSchema,
  // Its events (UserDeleted) go out; it listens to none.
  consumes: false,
  create: createIdentityService,
});
