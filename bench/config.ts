import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';

const benchSchema = z.object({
  DATABASE_URL: env.url(['postgres', 'postgresql']).default('postgres://postgres@127.0.0.1:5432/postgres'),
  REDIS_URL: env.url(['redis', 'rediss']).default('redis://127.0.0.1:6379'),
  BENCH_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
});

/** The benchmarks' configuration (the only reader of process.env among them). */
export function benchConfig() {
  return loadConfig(benchSchema, process.env);
}

const bareProxySchema = z.object({
  PORT: env.port(18082),
  TARGET_URL: env.url(['http']),
});

/** The bare proxy's configuration (bench/bare-proxy.ts). */
export function bareProxyConfig() {
  return loadConfig(bareProxySchema, process.env);
}
