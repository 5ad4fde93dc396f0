import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';

export type Infrastructure = {
  /** An admin connection to a Postgres server; tests create their own databases on it. */
  postgresUrl: string;
  amqpUrl: string;
  redisUrl: string;
  /** Where each server came from, for the one line the run prints. */
  origin: Record<'postgres' | 'rabbitmq' | 'redis', string>;
};

type Server = 'postgres' | 'rabbitmq' | 'redis';

const LOCAL_DEFAULTS: Record<Server, string> = {
  postgres: 'postgres://postgres@127.0.0.1:5432/postgres',
  rabbitmq: 'amqp://guest:guest@127.0.0.1:5672',
  redis: 'redis://127.0.0.1:6379',
};

const START_HINTS: Record<Server, string> = {
  postgres: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  rabbitmq: 'rabbitmq-server -detached',
  redis: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
};

function fromEnvironment(env: NodeJS.ProcessEnv): Record<Server, string | undefined> {
  return {
    postgres: env['TEST_DATABASE_URL'] ?? env['DATABASE_URL'],
    rabbitmq: env['TEST_AMQP_URL'] ?? env['AMQP_URL'],
    redis: env['TEST_REDIS_URL'] ?? env['REDIS_URL'],
  };
}

/** True when something accepts TCP connections at the URL's host and port. */
export function isReachable(url: string, timeoutMs = 1000): Promise<boolean> {
  const parsed = new URL(url);
  const defaultPort = { 'postgres:': 5432, 'postgresql:': 5432, 'amqp:': 5672, 'redis:': 6379 }[
    parsed.protocol
  ];
  const port = Number(parsed.port || defaultPort);
  return new Promise((resolve) => {
    const socket = net.connect({ host: parsed.hostname, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function dockerRuns(): Promise<boolean> {
  try {
    await promisify(execFile)('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

async function startContainer(server: Server): Promise<{ url: string; stop: () => Promise<void> }> {
  const { GenericContainer, Wait } = await import('testcontainers');
  if (server === 'postgres') {
    const c = await new GenericContainer('postgres:16-alpine')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
      .start();
    return {
      url: `postgres://postgres@${c.getHost()}:${c.getMappedPort(5432)}/postgres`,
      stop: () => c.stop().then(() => undefined),
    };
  }
  if (server === 'rabbitmq') {
    const c = await new GenericContainer('rabbitmq:3.13-alpine')
      .withExposedPorts(5672)
      .withWaitStrategy(Wait.forLogMessage(/Server startup complete/))
      .start();
    return {
      url: `amqp://guest:guest@${c.getHost()}:${c.getMappedPort(5672)}`,
      stop: () => c.stop().then(() => undefined),
    };
  }
  const c = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
  return {
    url: `redis://${c.getHost()}:${c.getMappedPort(6379)}`,
    stop: () => c.stop().then(() => undefined),
  };
}

/**
 * Finds Postgres, RabbitMQ and Redis (DESIGN §8): the environment first, then the local default
 * ports, then containers where a Docker engine runs. With CI=true a missing server fails the run.
 */
export async function findInfrastructure(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ infrastructure: Infrastructure; stop: () => Promise<void> }> {
  const configured = fromEnvironment(env);
  const found: Partial<Record<Server, string>> = {};
  const origin: Partial<Record<Server, string>> = {};
  const stops: Array<() => Promise<void>> = [];
  const missing: Server[] = [];
  let docker: boolean | undefined;

  for (const server of ['postgres', 'rabbitmq', 'redis'] as const) {
    const fromEnv = configured[server];
    if (fromEnv) {
      if (!(await isReachable(fromEnv))) {
        throw new Error(`${server} at ${redact(fromEnv)} (from the environment) is not reachable`);
      }
      found[server] = fromEnv;
      origin[server] = 'environment';
      continue;
    }
    if (await isReachable(LOCAL_DEFAULTS[server])) {
      found[server] = LOCAL_DEFAULTS[server];
      origin[server] = 'local default port';
      continue;
    }
    docker ??= await dockerRuns();
    if (docker) {
      const container = await startContainer(server);
      found[server] = container.url;
      origin[server] = 'testcontainers';
      stops.push(container.stop);
      continue;
    }
    missing.push(server);
  }

  if (missing.length > 0) {
    const how = missing.map((s) => `  ${s}: set ${envName(s)} or start it: ${START_HINTS[s]}`).join('\n');
    const why = env['CI'] === 'true' ? 'CI=true requires real servers' : 'no Docker engine to start them';
    throw new Error(`Tests need ${missing.join(', ')} and none was found (${why}).\n${how}`);
  }

  return {
    infrastructure: {
      postgresUrl: found.postgres!,
      amqpUrl: found.rabbitmq!,
      redisUrl: found.redis!,
      origin: origin as Infrastructure['origin'],
    },
    stop: async () => {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}

function envName(server: Server): string {
  return { postgres: 'TEST_DATABASE_URL', rabbitmq: 'TEST_AMQP_URL', redis: 'TEST_REDIS_URL' }[server];
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
