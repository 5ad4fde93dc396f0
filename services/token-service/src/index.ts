import { defineService } from '@tolk/service';
import { createTokenService } from './app.js';
import { configSchema } from './config.js';

/** token-service: project tokens; consumes project and user events to keep its own copy. */
export const tokenService = defineService('token', {
  schema: 'tokens',
  migrations: new URL('../migrations', import.meta.url),
  config: configSchema,
  create: createTokenService,
});
