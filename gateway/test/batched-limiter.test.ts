import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { realServers } from '@tolk/testing';
import { createBatchedLimiter, type Verdict } from '../src/rate-limit/batched-limiter.js';

// Counts in Redis itself: a run without a real one (DESIGN §8) skips these and never connects.
const withRedis = realServers().redis;
const redis = new Redis(inject('infrastructure').redisUrl, {
  enableAutoPipelining: true,
  lazyConnect: !withRedis,
});
// The store refuses to wait for a connection (as in the gateway): connect before the first test.
beforeAll(() => (withRedis ? redis.ping() : undefined));
afterAll(() => (withRedis ? redis.quit() : redis.disconnect()));

function limiterOn(options: { prefix: string; points: number; durationSeconds?: number; client?: Redis }) {
  const durationSeconds = options.durationSeconds ?? 60;
  const store = new RateLimiterRedis({
    storeClient: options.client ?? redis,
    keyPrefix: options.prefix,
    points: options.points,
    duration: durationSeconds,
    rejectIfRedisNotReady: true,
  });
  const storeErrors: unknown[] = [];
  const limiter = createBatchedLimiter({
    store,
    points: options.points,
    flushIntervalMs: 20,
    onStoreError: (err) => storeErrors.push(err),
  });
  return { limiter, store, storeErrors };
}

async function countInRedis(prefix: string, key: string): Promise<number> {
  return Number(await redis.get(`${prefix}:${key}`));
}

describe.skipIf(!withRedis)('the general limit, counted locally and sent to Redis in batches', () => {
  it('when far from the limit, then requests are let through without waiting and Redis gets every point', async () => {
    const prefix = `tolk-test:${randomUUID()}`;
    const { limiter } = limiterOn({ prefix, points: 1000 });

    // The first request of a window asks Redis: nothing is known before it answers.
    const first = limiter.consume('user:a');
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual({ allowed: true });

    const verdicts: Array<Verdict | Promise<Verdict>> = [];
    for (let n = 0; n < 200; n++) verdicts.push(limiter.consume('user:a'));
    expect(verdicts.every((verdict) => !(verdict instanceof Promise) && verdict.allowed)).toBe(true);

    await limiter.flush();
    expect(await countInRedis(prefix, 'user:a')).toBe(201);
  });

  it('when close to the limit, then every request asks Redis and the limit is exact', async () => {
    const prefix = `tolk-test:${randomUUID()}`;
    const { limiter } = limiterOn({ prefix, points: 30 }); // headroom: the last 10 points

    let allowed = 0;
    let waited = 0;
    for (let n = 0; n < 40; n++) {
      const verdict = limiter.consume('user:b');
      if (verdict instanceof Promise) waited++;
      if ((await verdict).allowed) allowed++;
    }
    expect(allowed).toBe(30);
    // The first request and every one from point 21 on waited for Redis.
    expect(waited).toBeGreaterThanOrEqual(11);
    const refusal = await limiter.consume('user:b');
    expect(refusal.allowed).toBe(false);
    expect(refusal.allowed === false && refusal.msBeforeNext).toBeGreaterThan(50_000);
  });

  it('when two instances share Redis, then after one flush both know the shared count', async () => {
    const prefix = `tolk-test:${randomUUID()}`;
    const first = limiterOn({ prefix, points: 100 });
    const second = limiterOn({ prefix, points: 100 });

    // Each lets through what it may on its own: the documented slack of the fast path.
    for (const { limiter } of [first, second]) {
      while ((await limiter.consume('user:c')).allowed) {
        if ((await countInRedis(prefix, 'user:c')) > 200) throw new Error('never refused');
      }
    }
    await first.limiter.flush();
    await second.limiter.flush();
    // Refused locally by both, now that each has heard the store's count.
    expect((await first.limiter.consume('user:c')).allowed).toBe(false);
    expect((await second.limiter.consume('user:c')).allowed).toBe(false);
    const total = await countInRedis(prefix, 'user:c');
    expect(total).toBeGreaterThanOrEqual(100);
    // At most each instance's fast-path share (points − headroom) beyond the limit.
    expect(total).toBeLessThanOrEqual(100 + 90);
  });

  it('when the window ends, then the key asks Redis again and is let through', async () => {
    const prefix = `tolk-test:${randomUUID()}`;
    const { limiter } = limiterOn({ prefix, points: 2, durationSeconds: 1 });

    expect((await limiter.consume('user:d')).allowed).toBe(true);
    expect((await limiter.consume('user:d')).allowed).toBe(true);
    expect((await limiter.consume('user:d')).allowed).toBe(false);
    // Kept: waits out the real one-second window Redis expires; nothing signals its end.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await limiter.consume('user:d')).allowed).toBe(true);
  });

  it('when Redis is unreachable, then requests are let through and the failure is reported', async () => {
    const unreachable = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const { limiter, storeErrors } = limiterOn({
      prefix: `tolk-test:${randomUUID()}`,
      points: 5,
      client: unreachable,
    });

    for (let n = 0; n < 10; n++) expect((await limiter.consume('user:e')).allowed).toBe(true);
    expect(storeErrors.length).toBeGreaterThan(0);
    unreachable.disconnect();
  });
});
