import { z } from 'zod';
import { configLoader, env, serviceEnv } from '@tolk/config';
import { SERVICE_PORTS } from '@tolk/contracts';

export const configSchema = z.object({
  ...serviceEnv(SERVICE_PORTS.token),
  // A project not yet known from its events is asked of project-service.
  PROJECT_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.project}`),
  PROJECT_SERVICE_TIMEOUT_MS: env.count(5_000),
  // Last before a token's creation or revocation commits, its user is asked of the owners of the
  // truth: the account of identity-service, the membership of project-service. Slower is 504.
  IDENTITY_SERVICE_URL: env.httpBase(`http://127.0.0.1:${SERVICE_PORTS.identity}`),
  WRITER_CHECK_TIMEOUT_MS: env.count(2_000),
  // Live tokens a project may hold at once; the list view is never paged.
  TOKEN_MAX_PER_PROJECT: env.count(100),
});

export type TokenConfig = z.infer<typeof configSchema>;

/** The whole configuration of the service, parsed once and frozen; every problem listed at once. */
export const loadTokenConfig = configLoader(configSchema);

export { loadMigrationConfig } from '@tolk/config';
