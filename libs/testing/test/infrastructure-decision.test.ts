import { describe, expect, it } from 'vitest';
import {
  describeInfrastructure,
  findInfrastructure,
  type InfrastructureProbes,
  type Server,
} from '@tolk/testing';

const LOCAL: Record<Server, string> = {
  postgres: 'postgres://postgres@127.0.0.1:5432/postgres',
  rabbitmq: 'amqp://guest:guest@127.0.0.1:5672',
  redis: 'redis://127.0.0.1:6379',
};
const ENV = {
  TEST_DATABASE_URL: 'postgres://postgres@db.test:5432/postgres',
  TEST_AMQP_URL: 'amqp://guest:secret@mq.test:5672',
  TEST_REDIS_URL: 'redis://cache.test:6379',
};

/** A machine where exactly `answering` accept connections and Docker runs or not; nothing real is probed. */
function machine(answering: string[], docker = false) {
  const started: Server[] = [];
  const probes: InfrastructureProbes = {
    isReachable: async (url) => answering.includes(url),
    dockerRuns: async () => docker,
    async startContainer(server) {
      started.push(server);
      return { url: `${server}://container.test`, stop: async () => undefined };
    },
  };
  return { probes, started };
}

describe('findInfrastructure decides where each server comes from', () => {
  it('when the environment names servers that answer, then they are used as given', async () => {
    const { probes } = machine([...Object.values(ENV), ...Object.values(LOCAL)]);
    const { infrastructure } = await findInfrastructure(ENV, probes);
    expect(infrastructure).toStrictEqual({
      postgresUrl: ENV.TEST_DATABASE_URL,
      amqpUrl: ENV.TEST_AMQP_URL,
      redisUrl: ENV.TEST_REDIS_URL,
      origin: { postgres: 'environment', rabbitmq: 'environment', redis: 'environment' },
      real: { postgres: true, rabbitmq: true, redis: true },
      reasons: {},
    });
  });

  it('when TEST_*_URL is unset, then DATABASE_URL, AMQP_URL and REDIS_URL name the servers', async () => {
    const env = {
      DATABASE_URL: ENV.TEST_DATABASE_URL,
      AMQP_URL: ENV.TEST_AMQP_URL,
      REDIS_URL: ENV.TEST_REDIS_URL,
    };
    const { infrastructure } = await findInfrastructure(env, machine(Object.values(ENV)).probes);
    expect(infrastructure.origin).toStrictEqual({
      postgres: 'environment',
      rabbitmq: 'environment',
      redis: 'environment',
    });
  });

  it('when the environment names none, then servers on the local default ports are used', async () => {
    const { infrastructure } = await findInfrastructure({}, machine(Object.values(LOCAL)).probes);
    expect(infrastructure).toMatchObject({
      postgresUrl: LOCAL.postgres,
      amqpUrl: LOCAL.rabbitmq,
      redisUrl: LOCAL.redis,
      origin: { postgres: 'local default port', rabbitmq: 'local default port', redis: 'local default port' },
    });
  });

  it('when only some local ports answer and Docker runs, then containers stand in for the others', async () => {
    const { probes, started } = machine([LOCAL.postgres], true);
    const { infrastructure } = await findInfrastructure({}, probes);
    expect(started).toStrictEqual(['rabbitmq', 'redis']);
    expect(infrastructure).toMatchObject({
      postgresUrl: LOCAL.postgres,
      amqpUrl: 'rabbitmq://container.test',
      origin: { postgres: 'local default port', rabbitmq: 'testcontainers', redis: 'testcontainers' },
      real: { postgres: true, rabbitmq: true, redis: true },
    });
  });

  it('when nothing answers and Docker does not run outside CI, then every server is embedded', async () => {
    const { infrastructure } = await findInfrastructure({}, machine([]).probes);
    expect(infrastructure).toMatchObject({
      postgresUrl: 'embedded',
      amqpUrl: 'embedded',
      redisUrl: 'embedded',
      origin: { postgres: 'embedded', rabbitmq: 'embedded', redis: 'embedded' },
      real: { postgres: false, rabbitmq: false, redis: false },
    });
  });

  it('when a server the environment names does not answer outside CI, then it is embedded, not replaced by a local one', async () => {
    const { probes, started } = machine(
      [ENV.TEST_DATABASE_URL, ENV.TEST_REDIS_URL, ...Object.values(LOCAL)],
      true,
    );
    const { infrastructure } = await findInfrastructure(ENV, probes);
    expect(started).toStrictEqual([]);
    expect(infrastructure).toMatchObject({
      postgresUrl: ENV.TEST_DATABASE_URL,
      amqpUrl: 'embedded',
      redisUrl: ENV.TEST_REDIS_URL,
      real: { postgres: true, rabbitmq: false, redis: true },
      reasons: { rabbitmq: 'amqp://guest:***@mq.test:5672 (from the environment) does not answer' },
    });
  });

  it('when CI=true and a server the environment names does not answer, then the run fails naming it', async () => {
    const { probes } = machine([ENV.TEST_DATABASE_URL, ENV.TEST_AMQP_URL]);
    await expect(findInfrastructure({ ...ENV, CI: 'true' }, probes)).rejects.toThrow(
      'redis at redis://cache.test:6379 (from the environment) is not reachable',
    );
  });

  it('when CI=true and nothing answers nor runs Docker, then the run fails with how to start each server', async () => {
    const failure = findInfrastructure({ CI: 'true' }, machine([LOCAL.redis]).probes);
    await expect(failure).rejects.toThrow(/^Tests need postgres, rabbitmq and none was found \(CI=true/);
    await expect(failure).rejects.toThrow(/set TEST_AMQP_URL or start it: rabbitmq-server -detached/);
  });
});

describe('describeInfrastructure', () => {
  it('when every server is real, then the line says where each came from', async () => {
    const { infrastructure } = await findInfrastructure({}, machine(Object.values(LOCAL)).probes);
    expect(describeInfrastructure(infrastructure)).toBe(
      'Test infrastructure: postgres (local default port), rabbitmq (local default port), redis (local default port)',
    );
  });

  it('when servers are embedded, then the one line names each stand-in, why, and that tests are skipped', async () => {
    const { infrastructure } = await findInfrastructure({}, machine([LOCAL.redis]).probes);
    const line = describeInfrastructure(infrastructure);
    expect(line).toBe(
      'Test infrastructure: postgres (embedded PGlite: none on the local default port, no Docker engine), ' +
        'rabbitmq (embedded in-process bus: none on the local default port, no Docker engine), ' +
        'redis (local default port); tests that need a real server are skipped (with CI=true this fails instead)',
    );
    expect(line).not.toContain('\n');
  });
});
