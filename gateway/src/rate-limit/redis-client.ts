import { Redis } from 'ioredis';
import type { Logger } from '@tolk/logger';

/**
 * The Redis connection of the rate limiters. Redis is a cache here (DESIGN §1), so it must never
 * hold a request up: no offline queue (a command while disconnected fails at once), a short
 * connect and command timeout, one retry, and reconnection in the background forever.
 */
export function createRedisClient(url: string, deps: { commandTimeoutMs: number; logger: Logger }): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    // Commands issued in the same tick (limits, cache reads of concurrent requests) share one write.
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    commandTimeout: deps.commandTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Logged when the state changes, not once per reconnection attempt.
  let failing = false;
  redis.on('error', (err: Error) => {
    if (failing) return;
    failing = true;
    deps.logger.warn({ err }, 'Redis unavailable; rate limits fall back to this instance');
  });
  redis.on('ready', () => {
    if (!failing) return;
    failing = false;
    deps.logger.info('Redis available again');
  });
  return redis;
}

/**
 * A connection of its own for pub/sub, since a subscribed connection can do nothing else. Unlike
 * the client it comes from, it queues commands while disconnected and has no command timeout:
 * no request waits on it, and a SUBSCRIBE answered late (this process busy starting) would
 * otherwise be reported failed although Redis took it. ioredis subscribes again after every
 * reconnection.
 */
export function subscriberConnection(redis: Redis): Redis {
  return redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined });
}
