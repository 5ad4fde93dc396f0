import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@tolk/logger';
import { testRedisUrl } from '@tolk/testing';
import { createRedisClient, subscriberConnection } from '../src/rate-limit/redis-client.js';

const redisUrl = testRedisUrl();

describe.skipIf(!redisUrl)('the pub/sub connection of token and user evictions', () => {
  const opened: Redis[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((redis) => redis.quit().catch(() => redis.disconnect())));
  });

  it('when the process is busy while it subscribes (as when it starts), then the subscription still succeeds and messages arrive', async () => {
    // The gateway's client answers within its command timeout or fails: 1 ms here.
    const redis = createRedisClient(redisUrl!, {
      commandTimeoutMs: 1,
      logger: createLogger({ name: 'gateway', level: 'silent' }),
    });
    const publisher = new Redis(redisUrl!);
    opened.push(redis, publisher);
    await new Promise((resolve) => redis.once('ready', resolve));
    const subscriber = subscriberConnection(redis);
    opened.push(subscriber);
    const channel = `tolk-test-${randomUUID()}`;
    const received = new Promise<string>((resolve) =>
      subscriber.on('message', (_channel, message) => resolve(message)),
    );

    const subscribed = subscriber.subscribe(channel);
    // The event loop held for 50 ms, far past the client's command timeout, before Redis's answer is read.
    const until = Date.now() + 50;
    while (Date.now() < until);

    await expect(subscribed).resolves.toBe(1);
    await publisher.publish(channel, 'token-hash');
    expect(await received).toBe('token-hash');
  });
});
