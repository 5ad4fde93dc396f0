/**
 * Tolk's embedded mode as a user starts it: the launcher `npm start` runs (scripts/start.ts), with
 * none of DATABASE_URL, AMQP_URL and REDIS_URL set, on a data directory of the caller's. node is
 * spawned directly, not through npm, so the child's pid is the process running Tolk and its
 * /proc/<pid>/status tells Tolk's resident memory; `viaNpm` runs `npm start` itself instead (the
 * smoke), stopped as Ctrl-C stops it: SIGINT to its process group.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import { SERVICE_PORTS } from '@tolk/contracts';
import { inheritedEnvironment } from '../scripts/config.js';
import { ROOT } from '../scripts/processes.js';

const LAUNCHER = path.join(ROOT, 'scripts/start.ts');
/** Any of these set would start the servers mode, or take secrets other than the run's. */
const REMOVED_VARIABLES = [
  'DATABASE_URL',
  'AMQP_URL',
  'REDIS_URL',
  'JWT_PRIVATE_KEY',
  'JWT_PUBLIC_KEY',
  'INTERNAL_JWT_SECRET',
  'PUBLIC_URL',
];
const POLL_EVERY_MS = 20;
const STOP_TIMEOUT_MS = 15_000;
const LEVELS: Record<number, string> = { 40: 'warn', 50: 'error', 60: 'fatal' };

export function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port nobody listens on, as the system hands them out. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The embedded mode takes the services' usual ports (8081-8086) whatever PORT says: all must be free. */
export async function assertEmbeddedPortsFree(gatewayPort: number): Promise<void> {
  const wanted = [
    ...Object.entries(SERVICE_PORTS).map(([service, port]) => ({ what: `${service}-service`, port })),
    { what: 'gateway', port: gatewayPort },
  ];
  const busy = [];
  for (const { what, port } of wanted) if (!(await isFree(port))) busy.push(`${port} (${what})`);
  if (busy.length > 0) {
    throw new Error(
      `the embedded mode needs port(s) ${busy.join(', ')}, which something already listens on — ` +
        'another `npm start`, or a test? Stop it and run again.',
    );
  }
}

export type Memory = { rssKiB: number; highWaterKiB: number };

/** VmRSS and VmHWM (the peak RSS so far) of a process; undefined once it is gone or off Linux. */
export function readMemory(pid: number): Memory | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  const memory = { rssKiB: kib('VmRSS'), highWaterKiB: kib('VmHWM') };
  return Number.isFinite(memory.rssKiB) && Number.isFinite(memory.highWaterKiB) ? memory : undefined;
}

/** Reads a process's VmRSS every `everyMs` until stopped; `stop` returns the samples in KiB. */
export function sampleMemory(pid: number, everyMs: number) {
  const samples: number[] = [];
  const take = () => {
    const memory = readMemory(pid);
    if (memory) samples.push(memory.rssKiB);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop(): number[] {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/** Bytes of the files under a directory. */
export async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** A pino line at warn or above as `level [name] message: error`; other JSON and the banner: undefined. */
function warningOf(line: string): string | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const entry = JSON.parse(line) as {
      level?: number;
      name?: string;
      msg?: string;
      err?: { message?: string };
    };
    const level = LEVELS[entry.level ?? 0];
    if (!level) return undefined;
    const error = entry.err?.message ? `: ${entry.err.message}` : '';
    return `${level} [${entry.name ?? '?'}] ${entry.msg ?? ''}${error}`;
  } catch {
    return line;
  }
}

export type EmbeddedStart = {
  /** From spawning node to GET /healthz answering 200. */
  healthyMs: number;
  /** From spawning node to GET /readyz answering "ready" as well. */
  readyMs: number;
  /** What the launcher prints as "started in": opening PGlite, migrating, listening. */
  reportedMs: number | undefined;
};

/**
 * Spawns the embedded Tolk; nothing is awaited yet. `onWarning` gets its log lines at warn and
 * above and whatever it writes to stderr; `onExit` is called if it exits without being stopped.
 */
export function spawnEmbeddedTolk(options: {
  dataDir: string;
  port: number;
  env?: Record<string, string>;
  viaNpm?: boolean;
  onWarning: (line: string) => void;
  onExit?: (how: string) => void;
}) {
  const env: NodeJS.ProcessEnv = { ...inheritedEnvironment() };
  for (const name of REMOVED_VARIABLES) delete env[name];
  Object.assign(env, {
    TOLK_DATA_DIR: options.dataDir,
    PORT: String(options.port),
    LOG_LEVEL: 'warn',
    ...options.env,
  });
  const spawnedAt = performance.now();
  const [command, args] = options.viaNpm
    ? ['npm', ['start']]
    : [process.execPath, ['--conditions=tolk-source', '--import', 'tsx', LAUNCHER]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.viaNpm === true,
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not spawn ${command}`);
  const signal = (name: NodeJS.Signals) => (options.viaNpm ? process.kill(-pid, name) : child.kill(name));

  const output: string[] = [];
  let reportedMs: number | undefined;
  let stopping = false;
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = signal ?? `code ${code}`;
      if (!stopping) options.onExit?.(exit);
      resolve();
    });
  });
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    output.push(line);
    const started = /started in (\d+) ms/.exec(line);
    if (started) reportedMs = Number(started[1]);
    const warning = warningOf(line);
    if (warning) options.onWarning(warning);
  });
  readline.createInterface({ input: child.stderr }).on('line', (line) => {
    output.push(line);
    options.onWarning(warningOf(line) ?? line);
  });

  const url = `http://127.0.0.1:${options.port}`;
  async function answer(target: string): Promise<{ status: number; body: unknown } | undefined> {
    try {
      const response = await fetch(`${url}${target}`, { signal: AbortSignal.timeout(2000) });
      return { status: response.status, body: await response.json().catch(() => undefined) };
    } catch {
      return undefined; // not listening yet
    }
  }
  const pause = () => new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
  const failure = (what: string) =>
    new Error(`the embedded Tolk ${what}; its last output:\n${output.slice(-20).join('\n')}`);

  return {
    pid,
    url,

    /** Polls /healthz, then /readyz, until both answer; rejects when Tolk exits or `timeoutMs` passes. */
    async ready(timeoutMs: number): Promise<EmbeddedStart> {
      const deadline = spawnedAt + timeoutMs;
      const until = async (target: string, isDone: (got: { status: number; body: unknown }) => boolean) => {
        for (;;) {
          if (exit) throw failure(`exited (${exit}) before it was ready`);
          const got = await answer(target);
          if (got && isDone(got)) return performance.now() - spawnedAt;
          if (performance.now() > deadline) throw failure(`was not ready within ${timeoutMs} ms`);
          await pause();
        }
      };
      const healthyMs = await until('/healthz', (got) => got.status === 200);
      const readyMs = await until(
        '/readyz',
        (got) => (got.body as { status?: string } | undefined)?.status === 'ready',
      );
      // The launcher prints its own figure just after the gateway listens.
      for (let i = 0; i < 50 && reportedMs === undefined; i++) await pause();
      return { healthyMs, readyMs, reportedMs };
    },

    /** SIGINT (Ctrl-C), then waits for the exit; SIGKILL after 15 s. Resolves to the ms it took. */
    async stop(): Promise<{ ms: number; killed: boolean }> {
      stopping = true;
      if (exit) return { ms: 0, killed: false };
      const sentAt = performance.now();
      let killed = false;
      const kill = setTimeout(() => {
        killed = true;
        signal('SIGKILL');
      }, STOP_TIMEOUT_MS);
      signal('SIGINT');
      await exited;
      clearTimeout(kill);
      return { ms: performance.now() - sentAt, killed };
    },
  };
}

export type EmbeddedTolkProcess = ReturnType<typeof spawnEmbeddedTolk>;
