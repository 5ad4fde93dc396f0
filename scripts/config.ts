import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';

/** Configuration of the launcher that `npm start` runs (the only reader of process.env here). */
const launcherSchema = z.object({
  NODE_ENV: env.nodeEnv(),
  PORT: env.port(8080),
  PUBLIC_URL: z.string().url().optional(),
  TOLK_DATA_DIR: z.string().min(1).default('./.tolk'),
  DATABASE_URL: env.url(['postgres', 'postgresql']).default('postgres://postgres@127.0.0.1:5432/tolk'),
  AMQP_URL: env.url(['amqp', 'amqps']).default('amqp://guest:guest@127.0.0.1:5672'),
  REDIS_URL: env.url(['redis', 'rediss']).default('redis://127.0.0.1:6379'),
  JWT_PRIVATE_KEY: env.pem().optional(),
  JWT_PUBLIC_KEY: env.pem().optional(),
  INTERNAL_JWT_SECRET: env.secret().optional(),
  LOG_LEVEL: env.logLevel(),
});

export type LauncherConfig = z.infer<typeof launcherSchema>;

export function loadLauncherConfig(): Readonly<LauncherConfig> {
  return loadConfig(launcherSchema, process.env);
}

/** What a child process inherits: the parent's environment, so PATH, locale etc. stay intact. */
export function inheritedEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env };
}
