import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';

const benchSchema = z.object({
  DATABASE_URL: env.url(['postgres', 'postgresql']).default('postgres://postgres@127.0.0.1:5432/postgres'),
  REDIS_URL: env.url(['redis', 'rediss']).default('redis://127.0.0.1:6379'),
  AMQP_URL: env.url(['amqp', 'amqps']).default('amqp://guest:guest@127.0.0.1:5672'),
  BENCH_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
  // bench:gateway: rounds of each measurement of direct / gateway / bare proxy, in rotating order;
  // the table shows each figure's median over the rounds, so one noisy window cannot decide it.
  BENCH_ROUNDS: z.coerce.number().int().min(1).max(9).default(3),
});

/** The benchmarks' configuration (the only reader of process.env among them). */
export function benchConfig() {
  return loadConfig(benchSchema, process.env);
}

const sourceBenchSchema = z.object({
  DATABASE_URL: env.url(['postgres', 'postgresql']).default('postgres://postgres@127.0.0.1:5432/postgres'),
  REDIS_URL: env.url(['redis', 'rediss']).default('redis://127.0.0.1:6379'),
  AMQP_URL: env.url(['amqp', 'amqps']).default('amqp://guest:guest@127.0.0.1:5672'),
  // servers: one process per service on the servers above; embedded: `npm start`'s embedded mode
  // in one process (none of the servers used).
  BENCH_SOURCE_MODE: z.enum(['servers', 'embedded']).default('servers'),
  // Ports of the gateway and the four services: this one and the next four. In the embedded mode
  // the gateway's only: the services take their usual ones (8081-8086).
  BENCH_SOURCE_PORT: env.port(18090),
  // Measured repetitions of the in-process parse and of each kind of 50,000-key upload.
  BENCH_SOURCE_REPETITIONS: z.coerce.number().int().min(3).max(90).default(25),
  BENCH_SOURCE_WARMUP: z.coerce.number().int().min(0).max(10).default(3),
  // Changed uploads of the small source whose propagation to the locales is timed.
  BENCH_SOURCE_PROPAGATIONS: z.coerce.number().int().min(100).max(10_000).default(120),
});

/** The source benchmark's configuration (bench/source.ts). */
export function sourceBenchConfig() {
  return loadConfig(sourceBenchSchema, process.env);
}

const slowClientsBenchSchema = z.object({
  DATABASE_URL: env.url(['postgres', 'postgresql']).default('postgres://postgres@127.0.0.1:5432/postgres'),
  REDIS_URL: env.url(['redis', 'rediss']).default('redis://127.0.0.1:6379'),
  AMQP_URL: env.url(['amqp', 'amqps']).default('amqp://guest:guest@127.0.0.1:5672'),
  // Ports of the gateway and the four services: this one and the next four.
  BENCH_SLOW_PORT: env.port(18100),
  // The slow uploads of one user, and how often each sends a byte (the report's: 600, every 5 s).
  BENCH_SLOW_CLIENTS: z.coerce.number().int().min(1).max(2000).default(600),
  BENCH_SLOW_EVERY_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  // The other user's source GETs and PUTs, one after the other, in each of the two phases.
  BENCH_SLOW_CALLS: z.coerce.number().int().min(20).max(5000).default(300),
});

/** bench:slow-clients' configuration (bench/slow-clients.ts). */
export function slowClientsBenchConfig() {
  return loadConfig(slowClientsBenchSchema, process.env);
}

const browseBenchSchema = z.object({
  DATABASE_URL: env.url(['postgres', 'postgresql']).default('postgres://postgres@127.0.0.1:5432/postgres'),
  REDIS_URL: env.url(['redis', 'rediss']).default('redis://127.0.0.1:6379'),
  AMQP_URL: env.url(['amqp', 'amqps']).default('amqp://guest:guest@127.0.0.1:5672'),
  // Ports of the gateway and the four services: this one and the next four.
  BENCH_BROWSE_PORT: env.port(18120),
  BENCH_BROWSE_KEYS: z.coerce.number().int().min(100).max(200_000).default(20_000),
  // Browser reads at once, and how many times.
  BENCH_BROWSE_READERS: z.coerce.number().int().min(1).max(200).default(20),
  BENCH_BROWSE_ROUNDS: z.coerce.number().int().min(1).max(20).default(3),
});

/** bench:browse's configuration (bench/browse.ts). */
export function browseBenchConfig() {
  return loadConfig(browseBenchSchema, process.env);
}

const bigValuesBenchSchema = z.object({
  // The gateway's port; the services take their usual ones (8081-8086), as `npm start` does.
  BENCH_BIG_VALUES_PORT: env.port(18110),
  // The other user's locale GETs and source PUTs, one after the other, in each of the two phases
  // (the second goes on until one round of the big uploads is done).
  BENCH_BIG_VALUES_CALLS: z.coerce.number().int().min(20).max(5000).default(300),
});

/** bench:big-values' configuration (bench/big-values.ts). */
export function bigValuesBenchConfig() {
  return loadConfig(bigValuesBenchSchema, process.env);
}

const bareProxySchema = z.object({
  PORT: env.port(18082),
  TARGET_URL: env.url(['http']),
});

/** The bare proxy's configuration (bench/bare-proxy.ts). */
export function bareProxyConfig() {
  return loadConfig(bareProxySchema, process.env);
}
