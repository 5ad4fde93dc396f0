/**
 * A deleted account's access tokens (stateless JWTs) are refused by every gateway instance: the
 * one that consumes UserDeleted, the others through Redis pub/sub, and one that starts later
 * from the shared list in Redis; entries go once no token of the account can still be valid.
 * Real Redis and RabbitMQ; identity-service is a stand-in (the gateway alone is under test).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import type { Bus } from '@tolk/bus';
import { createLogger } from '@tolk/logger';
import { openTestBroker, realServers, request, testRedisUrl, type TestBroker } from '@tolk/testing';
import { redisConnected, signAccessToken, startGateway, startUpstream } from './support.js';

const TTL_SECONDS = 900;
const withoutServers = !realServers().redis || !realServers().rabbitmq;

describe.skipIf(withoutServers)('deleted accounts at the gateway', () => {
  const logger = createLogger({ name: 'test', level: 'silent' });
  const prefix = `tolk-test:${randomUUID()}:tokens`;
  const queue = `test.gateway.users.${randomUUID()}`;
  let identity: Awaited<ReturnType<typeof startUpstream>>;
  let broker: TestBroker;
  let bus: Bus;
  let redis: Redis;
  const gateways: Array<Awaited<ReturnType<typeof startGateway>>> = [];

  async function gateway() {
    const started = await startGateway({
      IDENTITY_SERVICE_URL: identity.url,
      REDIS_URL: testRedisUrl(),
      AMQP_URL: inject('infrastructure').amqpUrl,
      // One deployment: the shared queue (one instance consumes each event) and the shared prefix.
      USER_EVENTS_QUEUE: queue,
      TOKEN_CACHE_KEY_PREFIX: prefix,
      ACCESS_TOKEN_MAX_TTL_SECONDS: String(TTL_SECONDS),
    });
    gateways.push(started);
    await redisConnected(started.url);
    await started.startConsumers();
    return started;
  }

  const me = (gatewayUrl: string, token: string) =>
    request(`${gatewayUrl}/v1/user/me`, { headers: { authorization: `Bearer ${token}` } });

  function publishUserDeleted(userId: string, occurredAt = Date.now()) {
    return bus.publish({
      id: randomUUID(),
      type: 'UserDeleted',
      occurredAt,
      producer: 'test',
      data: { userId },
    });
  }

  beforeAll(async () => {
    identity = await startUpstream();
    broker = await openTestBroker({ logger });
    bus = broker.bus({ logger, producer: 'identity-service' });
    redis = new Redis(testRedisUrl()!);
  });
  afterAll(async () => {
    for (const started of gateways) await started.close();
    await bus?.close();
    await broker?.deleteQueues([queue]);
    await broker?.close();
    redis?.disconnect();
    await identity?.close();
  });

  it('when an account is deleted, then every instance refuses its access tokens within a second, and one started later too', async () => {
    const [first, second] = [await gateway(), await gateway()];
    const userId = `usr_${randomUUID()}`;
    const token = await signAccessToken({ sub: userId });
    const bystander = await signAccessToken({ sub: `usr_${randomUUID()}` });
    // Verified and cached by both instances before the deletion.
    for (const instance of [first, second]) expect((await me(instance.url, token)).status).toBe(200);

    await publishUserDeleted(userId);
    // Both instances refuse within a second of the event.
    await expect
      .poll(
        async () => (await Promise.all([me(first.url, token), me(second.url, token)])).map((a) => a.status),
        { timeout: 1000, interval: 20 },
      )
      .toEqual([401, 401]);
    const refused = await me(second.url, token);
    expect(refused.body).toStrictEqual({
      error: { code: 'UNAUTHORIZED', message: 'The account of this access token has been deleted' },
    });
    expect((await me(first.url, bystander)).status).toBe(200);

    const later = await gateway();
    await expect
      .poll(async () => (await me(later.url, token)).status, { timeout: 1000, interval: 20 })
      .toBe(401);
    expect((await me(later.url, bystander)).status).toBe(200);

    // Bounded: the shared list expires with the longest-lived access token.
    const ttlMs = await redis.pttl(`${prefix}:deleted-users`);
    expect(ttlMs).toBeGreaterThan(0);
    expect(ttlMs).toBeLessThanOrEqual(TTL_SECONDS * 1000);
  });

  it('when a deletion arrives after every token of the account has expired, then nothing is kept', async () => {
    const instance = gateways[0] ?? (await gateway());
    const longGone = `usr_${randomUUID()}`;
    const marker = `usr_${randomUUID()}`;
    await publishUserDeleted(longGone, Date.now() - (TTL_SECONDS + 60) * 1000);
    await publishUserDeleted(marker);
    const markerToken = await signAccessToken({ sub: marker });
    // The later deletion applied: the earlier one has been handled too.
    await expect
      .poll(async () => (await me(instance.url, markerToken)).status, { timeout: 5000, interval: 20 })
      .toBe(401);

    expect(await redis.zscore(`${prefix}:deleted-users`, longGone)).toBeNull();
    expect((await me(instance.url, await signAccessToken({ sub: longGone }))).status).toBe(200);
  });
});
