/**
 * Runs `tolk` in-process against a real system: each harness has its own temporary HOME,
 * XDG_CONFIG_HOME and project directory, and an environment of its own (nothing leaks in from
 * the developer's shell: no OPENAI_API_KEY, no TOLK_TOKEN).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import type { Io } from '../../src/io.js';
import { run } from '../../src/run.js';

export type CliResult = { code: number; stdout: string; stderr: string; json<T = any>(): T };

export type RunOptions = {
  env?: Record<string, string | undefined>;
  /** Lines typed on stdin (then stdin counts as a terminal unless stdinIsTTY says otherwise). */
  input?: string[];
  isTTY?: boolean;
  /** stdout is a terminal this many columns wide (24 rows). */
  columns?: number;
  stdinIsTTY?: boolean;
  signal?: AbortSignal;
  openBrowser?: (url: string) => Promise<void>;
  cwd?: string;
  /** Called with everything written to stdout and stderr so far, on each write. */
  onOutput?: (stdout: string, stderr: string) => void;
};

export async function createCliHarness(apiUrl: string) {
  const root = await mkdtemp(join(tmpdir(), 'tolk-cli-'));
  const home = join(root, 'home');
  const configHome = join(root, 'config');
  const cwd = join(root, 'app');
  await mkdir(cwd, { recursive: true });
  const baseEnv: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: configHome,
    TOLK_API_URL: apiUrl,
  };

  async function tolk(args: string[], options: RunOptions = {}): Promise<CliResult> {
    let stdout = '';
    let stderr = '';
    const env = { ...baseEnv, ...options.env };
    for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
    const io: Io = {
      env,
      cwd: options.cwd ?? cwd,
      stdin: Readable.from(options.input ? options.input.map((line) => `${line}\n`) : []),
      stdout: {
        ...(options.columns === undefined ? {} : { columns: options.columns, rows: 24, isTTY: true }),
        write(chunk: string) {
          stdout += chunk;
          options.onOutput?.(stdout, stderr);
          return true;
        },
      },
      stderr: {
        write(chunk: string) {
          stderr += chunk;
          options.onOutput?.(stdout, stderr);
          return true;
        },
      },
      isTTY: options.isTTY ?? options.columns !== undefined,
      stdinIsTTY: options.stdinIsTTY ?? options.input !== undefined,
      openBrowser: options.openBrowser ?? (async () => Promise.reject(new Error('no browser in tests'))),
      signal: options.signal ?? new AbortController().signal,
    };
    const code = await run(args, io);
    return {
      code,
      stdout,
      stderr,
      json: () => JSON.parse(stdout),
    };
  }

  return {
    root,
    cwd,
    configHome,
    env: baseEnv,
    tolk,
    async writeJson(path: string, value: unknown) {
      const file = join(cwd, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, JSON.stringify(value, null, 2) + '\n');
    },
    async readJson<T = any>(path: string): Promise<T> {
      return JSON.parse(await readFile(join(cwd, path), 'utf8')) as T;
    },
    async readText(path: string): Promise<string> {
      return readFile(join(cwd, path), 'utf8');
    },
    async remove() {
      await rm(root, { recursive: true, force: true });
    },
  };
}

export type CliHarness = Awaited<ReturnType<typeof createCliHarness>>;
