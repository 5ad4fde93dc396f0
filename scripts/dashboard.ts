/**
 * The web dashboard's build (dashboard/dist), made when it is missing or older than its sources,
 * so that `npm start` on a fresh clone serves the dashboard with no build step of the user's own.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { inheritedEnvironment } from './config.js';
import { ROOT } from './processes.js';

export const DASHBOARD_SOURCE_DIR = path.join(ROOT, 'dashboard');
export const DASHBOARD_DIST_DIR = path.join(DASHBOARD_SOURCE_DIR, 'dist');

// The bundle also holds the shared plural rules (@tolk/locale-file/plural-groups), from source.
const SOURCES = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'package.json',
  '../libs/locale-file/src',
  '../libs/locale-file/package.json',
];

async function newestChange(entry: string): Promise<number> {
  const info = await stat(entry).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const children = await readdir(entry);
  const times = await Promise.all(children.map((child) => newestChange(path.join(entry, child))));
  return Math.max(info.mtimeMs, ...times);
}

/** `fresh`, or why a build is needed. */
export async function dashboardBuildState(): Promise<'fresh' | 'missing' | 'out of date'> {
  const built = await stat(path.join(DASHBOARD_DIST_DIR, 'index.html')).catch(() => null);
  if (!built) return 'missing';
  const sources = await Promise.all(
    SOURCES.map((name) => newestChange(path.join(DASHBOARD_SOURCE_DIR, name))),
  );
  return Math.max(...sources) > built.mtimeMs ? 'out of date' : 'fresh';
}

/**
 * Runs `vite build` for the dashboard and resolves with how long it took. It runs in a process of
 * its own: vite sets process.env.NODE_ENV for its build, which must not leak into the services
 * of an embedded `npm start`, and Ctrl-C stops it with the rest.
 */
export function buildDashboard(): Promise<{ ms: number }> {
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  if (!existsSync(vite)) {
    return Promise.reject(new Error('vite is not installed: run npm ci (or npm install) first'));
  }
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      cwd: DASHBOARD_SOURCE_DIR,
      env: inheritedEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve({ ms: Math.round(performance.now() - started) });
      else reject(new Error(`vite build failed (${signal ?? `exit code ${code}`}):\n${output.trim()}`));
    });
  });
}

/** Builds the dashboard unless dist/ is up to date; says what it did in one line. */
export async function ensureDashboardBuilt(
  log: (line: string) => void = console.log,
): Promise<{ built: boolean; ms?: number }> {
  const state = await dashboardBuildState();
  if (state === 'fresh') return { built: false };
  log(`building the web dashboard (dashboard/dist is ${state}) ...`);
  const { ms } = await buildDashboard();
  return { built: true, ms };
}
