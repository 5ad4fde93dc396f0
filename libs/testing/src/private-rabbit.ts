import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { accepts, freePort } from './ports.js';

const run = promisify(execFile);
const RABBITMQ_SERVER = '/usr/sbin/rabbitmq-server';
const RABBITMQCTL = '/usr/sbin/rabbitmqctl';

/** Whether this machine can run a RabbitMQ broker of a test's own (the Debian package). */
export function canRunPrivateRabbit(): boolean {
  return existsSync(RABBITMQ_SERVER) && existsSync(RABBITMQCTL);
}

/**
 * A RabbitMQ broker of the test's own, on free ports with its data in a temporary directory, so
 * a test can stop and restart a broker without disturbing the shared one other test files use.
 * Its data survives `stop()` + `start()`, as a real restart's does.
 */
export async function startPrivateRabbit() {
  const dir = await mkdtemp(path.join(tmpdir(), 'tolk-rabbit-'));
  const port = await freePort();
  const distPort = await freePort();
  const node = `tolk${port}@localhost`;
  await writeFile(
    path.join(dir, 'rabbitmq.conf'),
    `listeners.tcp.local = 127.0.0.1:${port}\nloopback_users = none\n`,
  );
  // The Debian scripts run the broker as the rabbitmq user when started as root.
  await chown(dir, ...(await rabbitmqIds())).catch(() => undefined);
  await chown(path.join(dir, 'rabbitmq.conf'), ...(await rabbitmqIds())).catch(() => undefined);
  const env = {
    ...process.env,
    RABBITMQ_NODENAME: node,
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: path.join(dir, 'log'),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'plugins'),
    RABBITMQ_PID_FILE: path.join(dir, 'pid'),
    RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq.conf'),
  };

  async function start(timeoutMs = 60_000): Promise<void> {
    const child = spawn(RABBITMQ_SERVER, [], { env, stdio: 'ignore', detached: true });
    child.unref();
    const deadline = Date.now() + timeoutMs;
    while (!(await accepts(port))) {
      if (Date.now() > deadline)
        throw new Error(`private RabbitMQ on port ${port} did not start in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function stop(): Promise<void> {
    await run(RABBITMQCTL, ['-n', node, 'stop'], { env });
    while (await accepts(port)) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  await start();
  return {
    url: `amqp://guest:guest@127.0.0.1:${port}`,
    start,
    stop,
    /** Stops the broker and removes its data. */
    async close(): Promise<void> {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function rabbitmqIds(): Promise<[number, number]> {
  const { stdout: uid } = await run('id', ['-u', 'rabbitmq']);
  const { stdout: gid } = await run('id', ['-g', 'rabbitmq']);
  return [Number(uid.trim()), Number(gid.trim())];
}

export type PrivateRabbit = Awaited<ReturnType<typeof startPrivateRabbit>>;
