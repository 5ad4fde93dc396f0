import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { accepts, freePort } from './ports.js';

const run = promisify(execFile);
const DEBIAN_POSTGRES = '/usr/lib/postgresql';
const OS_USER = 'postgres';

/** The newest Debian Postgres install's bin directory, if any. */
function postgresBin(): string | undefined {
  if (!existsSync(DEBIAN_POSTGRES)) return undefined;
  const versions = readdirSync(DEBIAN_POSTGRES)
    .filter((name) => existsSync(path.join(DEBIAN_POSTGRES, name, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(DEBIAN_POSTGRES, versions[0], 'bin');
}

/**
 * Whether this machine can run a Postgres server of a test's own: Debian's binaries, and as root
 * the `postgres` OS user to run them as (Postgres refuses to run as root).
 */
export function canRunPrivatePostgres(): boolean {
  if (postgresBin() === undefined) return false;
  if (process.getuid?.() !== 0) return true;
  return existsSync('/usr/sbin/runuser') || existsSync('/sbin/runuser');
}

/** Why `canRunPrivatePostgres()` is false, for a skipped test's reason. */
export const PRIVATE_POSTGRES_NEEDS = `Debian's Postgres server (${DEBIAN_POSTGRES}/<version>/bin/initdb and pg_ctl) and, as root, runuser`;

/**
 * A Postgres server of the test's own, on a free port with its data in a temporary directory and
 * trust authentication, so a test can stop and restart Postgres without disturbing the shared
 * server other test files use. Its data survives `stop()` + `start()`, as a real restart's does.
 */
export async function startPrivatePostgres() {
  const bin = postgresBin();
  if (!bin) throw new Error(`no private Postgres: needs ${PRIVATE_POSTGRES_NEEDS}`);
  const dir = await mkdtemp(path.join(tmpdir(), 'tolk-postgres-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await chown(dir, ...(await postgresIds()));

  /** Runs a Postgres tool, as the postgres OS user when we are root. */
  async function tool(name: string, args: string[]): Promise<void> {
    const command = path.join(bin!, name);
    if (asRoot) await run('runuser', ['-u', OS_USER, '--', command, ...args], { cwd: dir });
    else await run(command, args, { cwd: dir });
  }

  await tool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  // Its socket in its own directory (not /var/run/postgresql, which the shared server uses);
  // no fsync: a test's data need not survive a crash of the machine, only a restart.
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off`;

  async function start(timeoutMs = 30_000): Promise<void> {
    await tool('pg_ctl', [
      '-D',
      data,
      '-o',
      options,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-t',
      String(timeoutMs / 1000),
      'start',
    ]);
  }

  /** A fast shutdown, as `systemctl restart` does: sessions are ended (57P01), then the server stops. */
  async function stop(): Promise<void> {
    await tool('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    while (await accepts(port)) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    /** Stops the server and removes its data. */
    async close(): Promise<void> {
      await tool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function postgresIds(): Promise<[number, number]> {
  const { stdout: uid } = await run('id', ['-u', OS_USER]);
  const { stdout: gid } = await run('id', ['-g', OS_USER]);
  return [Number(uid.trim()), Number(gid.trim())];
}

export type PrivatePostgres = Awaited<ReturnType<typeof startPrivatePostgres>>;
