import { inject } from 'vitest';
import { EMBEDDED, type Server } from './infrastructure.js';

/**
 * Which servers are real in this run. A test that only makes sense on one (a broker restart, a
 * Redis outage, a connection of its own) skips without it, e.g. `it.skipIf(!realServers().rabbitmq)`.
 */
export function realServers(): Record<Server, boolean> {
  return inject('infrastructure').real;
}

/** REDIS_URL for a gateway under test: the run's Redis, or none (its in-memory stand-in). */
export function testRedisUrl(): string | undefined {
  const { redisUrl } = inject('infrastructure');
  return redisUrl === EMBEDDED ? undefined : redisUrl;
}
