import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';

/** What stands in for a server no run could find (DESIGN §8): same interfaces, in this process. */
export const EMBEDDED = 'embedded';

export type Server = 'postgres' | 'rabbitmq' | 'redis';
export type Origin = 'environment' | 'local default port' | 'testcontainers' | typeof EMBEDDED;

export type Infrastructure = {
  /** An admin connection to a Postgres server (tests create their own databases on it), or `embedded`: PGlite. */
  postgresUrl: string;
  /** A RabbitMQ server, or `embedded`: the in-process bus. */
  amqpUrl: string;
  /** A Redis server, or `embedded`: the gateway's in-memory caches and rate limits. */
  redisUrl: string;
  /** Where each server came from, for the one line the run prints. */
  origin: Record<Server, Origin>;
  /** Whether each server is real; a test that only makes sense on one skips without it. */
  real: Record<Server, boolean>;
  /** Why each embedded server is embedded. */
  reasons: Partial<Record<Server, string>>;
};

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

export async function dockerRuns(): Promise<boolean> {
  try {
    await promisify(execFile)('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

export async function startContainer(server: Server): Promise<{ url: string; stop: () => Promise<void> }> {
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

/** How findInfrastructure looks around; tests of the decision pass their own. */
export type InfrastructureProbes = {
  isReachable(url: string): Promise<boolean>;
  dockerRuns(): Promise<boolean>;
  startContainer(server: Server): Promise<{ url: string; stop: () => Promise<void> }>;
};

const PROBES: InfrastructureProbes = { isReachable: (url) => isReachable(url), dockerRuns, startContainer };

/**
 * Finds Postgres, RabbitMQ and Redis (DESIGN §8): the environment first, then the local default
 * ports, then containers where a Docker engine runs, else the embedded stand-in. A server the
 * environment names but that does not answer is not replaced by another real one (which could
 * hold other data): it gets the stand-in. With CI=true a missing server fails the run instead.
 */
export async function findInfrastructure(
  env: NodeJS.ProcessEnv = process.env,
  probes: InfrastructureProbes = PROBES,
): Promise<{ infrastructure: Infrastructure; stop: () => Promise<void> }> {
  const ci = env['CI'] === 'true';
  const configured = fromEnvironment(env);
  const found: Partial<Record<Server, string>> = {};
  const origin: Partial<Record<Server, Origin>> = {};
  const reasons: Partial<Record<Server, string>> = {};
  const stops: Array<() => Promise<void>> = [];
  const missing: Server[] = [];
  let docker: boolean | undefined;

  for (const server of ['postgres', 'rabbitmq', 'redis'] as const) {
    const fromEnv = configured[server];
    if (fromEnv) {
      if (await probes.isReachable(fromEnv)) {
        found[server] = fromEnv;
        origin[server] = 'environment';
      } else if (ci) {
        throw new Error(`${server} at ${redact(fromEnv)} (from the environment) is not reachable`);
      } else {
        found[server] = EMBEDDED;
        origin[server] = EMBEDDED;
        reasons[server] = `${redact(fromEnv)} (from the environment) does not answer`;
      }
      continue;
    }
    if (await probes.isReachable(LOCAL_DEFAULTS[server])) {
      found[server] = LOCAL_DEFAULTS[server];
      origin[server] = 'local default port';
      continue;
    }
    docker ??= await probes.dockerRuns();
    if (docker) {
      const container = await probes.startContainer(server);
      found[server] = container.url;
      origin[server] = 'testcontainers';
      stops.push(container.stop);
      continue;
    }
    if (ci) {
      missing.push(server);
      continue;
    }
    found[server] = EMBEDDED;
    origin[server] = EMBEDDED;
    reasons[server] = 'none on the local default port, no Docker engine';
  }

  if (missing.length > 0) {
    const how = missing.map((s) => `  ${s}: set ${envName(s)} or start it: ${START_HINTS[s]}`).join('\n');
    throw new Error(
      `Tests need ${missing.join(', ')} and none was found (CI=true requires real servers).\n${how}`,
    );
  }

  const real = (server: Server) => origin[server] !== EMBEDDED;
  return {
    infrastructure: {
      postgresUrl: found.postgres!,
      amqpUrl: found.rabbitmq!,
      redisUrl: found.redis!,
      origin: origin as Infrastructure['origin'],
      real: { postgres: real('postgres'), rabbitmq: real('rabbitmq'), redis: real('redis') },
      reasons,
    },
    stop: async () => {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}

const STAND_INS: Record<Server, string> = {
  postgres: 'PGlite',
  rabbitmq: 'in-process bus',
  redis: 'in-memory cache',
};

/** The one line a run prints about where its servers came from. */
export function describeInfrastructure(infrastructure: Infrastructure): string {
  const servers = (Object.keys(infrastructure.origin) as Server[]).map((server) =>
    infrastructure.real[server]
      ? `${server} (${infrastructure.origin[server]})`
      : `${server} (embedded ${STAND_INS[server]}: ${infrastructure.reasons[server]})`,
  );
  const embedded = Object.values(infrastructure.real).includes(false);
  return `Test infrastructure: ${servers.join(', ')}${
    embedded ? '; tests that need a real server are skipped (with CI=true this fails instead)' : ''
  }`;
}

function envName(server: Server): string {
  return { postgres: 'TEST_DATABASE_URL', rabbitmq: 'TEST_AMQP_URL', redis: 'TEST_REDIS_URL' }[server];
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
