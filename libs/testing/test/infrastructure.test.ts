import { describe, expect, inject, it } from 'vitest';
import { findInfrastructure, isReachable, realServers } from '@tolk/testing';

describe('findInfrastructure', () => {
  it('when the environment names a server that does not answer, then it fails naming it', async () => {
    await expect(findInfrastructure({ CI: 'true', TEST_REDIS_URL: 'redis://127.0.0.1:1' })).rejects.toThrow(
      /redis at redis:\/\/127\.0\.0\.1:1 \(from the environment\) is not reachable/,
    );
  });

  it('when the environment names running servers, then they are used as given', async ({ skip }) => {
    skip(Object.values(realServers()).includes(false), 'needs every server running');
    const running = inject('infrastructure');
    const { infrastructure } = await findInfrastructure({
      TEST_DATABASE_URL: running.postgresUrl,
      TEST_AMQP_URL: running.amqpUrl,
      TEST_REDIS_URL: running.redisUrl,
    });
    expect(infrastructure).toMatchObject({
      postgresUrl: running.postgresUrl,
      origin: { postgres: 'environment', rabbitmq: 'environment', redis: 'environment' },
    });
  });

  it('tells a listening port from a closed one', async ({ skip }) => {
    skip(!realServers().postgres, 'needs a listening Postgres');
    expect(await isReachable(inject('infrastructure').postgresUrl)).toBe(true);
    expect(await isReachable('postgres://127.0.0.1:1/x')).toBe(false);
  });
});
