import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';

/** Configuration of the launcher that `npm start` runs (the only reader of process.env here). */
const launcherSchema = z.object({
  NODE_ENV: env.nodeEnv(),
  PORT: env.port(8080),
  PUBLIC_URL: z.string().url().optional(),
  TOLK_DATA_DIR: z.string().min(1).default('./.tolk'),
  // None of the three set: the embedded mode. Any of them set: the servers, the others at their
  // local default ports (SERVER_DEFAULTS).
  DATABASE_URL: env.url(['postgres', 'postgresql']).optional(),
  AMQP_URL: env.url(['amqp', 'amqps']).optional(),
  REDIS_URL: env.url(['redis', 'rediss']).optional(),
  JWT_PRIVATE_KEY: env.pem().optional(),
  JWT_PUBLIC_KEY: env.pem().optional(),
  INTERNAL_JWT_SECRET: env.secret().optional(),
  LOG_LEVEL: env.logLevel(),
  // The gateway's /metrics port, as the gateway reads it in the servers mode (0: none).
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
});

export type LauncherConfig = z.infer<typeof launcherSchema>;

/** Where the servers are looked for when some, but not all, of their URLs are set. */
export const SERVER_DEFAULTS = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/tolk',
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
  REDIS_URL: 'redis://127.0.0.1:6379',
} as const;

export function loadLauncherConfig(): Readonly<LauncherConfig> {
  return loadConfig(launcherSchema, process.env);
}

/** What a child process inherits: the parent's environment, so PATH, locale etc. stay intact. */
export function inheritedEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env };
}
