import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { SERVICE_PORTS, type ServiceName } from '@tolk/contracts';

export const ROOT = path.resolve(import.meta.dirname, '..');

export type ProcessSpec = {
  name: string;
  entry: string;
  port: number;
  env: NodeJS.ProcessEnv;
};

/** The services of this checkout, in start order: only those whose code exists are run. */
export function presentServices(): { service: ServiceName; dir: string; port: number }[] {
  return (Object.keys(SERVICE_PORTS) as ServiceName[])
    .map((service) => ({
      service,
      dir: path.join(ROOT, 'services', `${service}-service`),
      port: SERVICE_PORTS[service],
    }))
    .filter(({ dir }) => existsSync(path.join(dir, 'src', 'start.ts')));
}

const COLORS = [36, 35, 33, 32, 34, 91, 96];
const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** Prints a child's JSON log lines compactly, prefixed with its name. */
function pipeOutput(child: ChildProcess, name: string, color: number): void {
  const prefix = process.stdout.isTTY ? `\x1b[${color}m${name.padEnd(18)}\x1b[0m` : name.padEnd(18);
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on('line', (line) => {
      process.stdout.write(`${prefix} ${formatLine(line)}\n`);
    });
  }
}

function formatLine(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const entry = JSON.parse(line) as Record<string, unknown>;
    const level = LEVELS[Number(entry['level'])] ?? 'info';
    const parts = [level, String(entry['msg'] ?? '')];
    if (entry['msg'] === 'request')
      parts.push(`${entry['method']} ${entry['path']} ${entry['status']} ${entry['ms']}ms`);
    const err = entry['err'] as { message?: string } | undefined;
    if (err?.message) parts.push(err.message);
    return parts.join(' ');
  } catch {
    return line;
  }
}

/**
 * Runs a child process and restarts it when it crashes, loudly; after too many crashes in a
 * short time it gives up and reports through `onGiveUp`.
 */
export function supervise(
  spec: ProcessSpec,
  index: number,
  onGiveUp: (name: string, code: number | null) => void,
) {
  let child: ChildProcess | undefined;
  let stopping = false;
  const crashes: number[] = [];

  const start = () => {
    // TOLK_CPU_PROFILE_DIR: each process writes a V8 CPU profile there when it stops (for benches).
    const profile = process.env.TOLK_CPU_PROFILE_DIR;
    const profiling = profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : [];
    child = spawn(
      process.execPath,
      [...profiling, '--conditions=tolk-source', '--import', 'tsx', spec.entry],
      {
        cwd: ROOT,
        env: { ...spec.env, PORT: String(spec.port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    pipeOutput(child, spec.name, COLORS[index % COLORS.length]!);
    child.on('exit', (code, signal) => {
      if (stopping) return;
      const now = Date.now();
      crashes.push(now);
      while (crashes.length > 0 && crashes[0]! < now - 60_000) crashes.shift();
      console.error(`\n!! ${spec.name} exited unexpectedly (${signal ?? `code ${code}`}).`);
      if (crashes.length >= 5) {
        console.error(`!! ${spec.name} crashed ${crashes.length} times within a minute; stopping Tolk.`);
        onGiveUp(spec.name, code);
        return;
      }
      const delay = 500 * 2 ** (crashes.length - 1);
      console.error(
        `!! restarting ${spec.name} in ${delay} ms (crash ${crashes.length} of at most 5 per minute)\n`,
      );
      setTimeout(() => !stopping && start(), delay);
    });
  };
  start();

  return {
    name: spec.name,
    /** The running child's process id (undefined between a crash and its restart). */
    get pid(): number | undefined {
      return child?.pid;
    },
    async stop(): Promise<void> {
      stopping = true;
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => running.kill('SIGKILL'), 10_000);
        running.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        running.kill('SIGTERM');
      });
    },
  };
}

/** Polls a health URL until it answers 200. */
export async function waitForHealthy(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not become healthy within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
