/**
 * A real app adopted as a new user adopts it (issue 26's first day): its files copied into a CLI
 * harness of its own, then `tolk init --yes`, `push`, `status`, `translate` (the model stand-in),
 * `status`, `pull` and `check`, with no flag beyond those and --json, each command's outcome and
 * duration kept for the test to look at.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LocaleResponse } from '@tolk/contracts';
import type { System } from '../../../test/e2e/system.js';
import { createCliHarness, type CliHarness, type CliResult } from './cli-harness.js';
import type { ProviderStandIn } from './provider-stand-ins.js';
import { copyRealApp, type RealApp } from './real-apps.js';

/** A finding of `tolk check --json`. */
export type CheckFinding = {
  file: string;
  line: number;
  locale: string;
  key: string | null;
  kind: string;
  severity: 'error' | 'warning';
  message: string;
};

type Step = 'init' | 'push' | 'status' | 'translate' | 'pull' | 'check';
type Command = Exclude<Step, 'status'>;

export type AdoptedApp = {
  app: RealApp;
  cli: CliHarness;
  /** tolk.json as `init --yes` wrote it. */
  config: { projectId: string; sourceLocale: string; targetLocales: string[]; files: unknown };
  runs: Record<Command, CliResult>;
  /** The locales as `tolk status --json` gave them right after the first push, and after translate. */
  afterPush: LocaleResponse[];
  afterTranslate: LocaleResponse[];
  findings: CheckFinding[];
  /** `translate` and `pull` run a second time, right after the first day. */
  again: { translate: CliResult; pull: CliResult };
  /** The files (relative, `.tolk/` aside) whose bytes or times the second run changed. */
  changedByRerun: string[];
  /** Seconds each command took (`status` both of its runs). */
  seconds: Record<Step, number>;
  /** The absolute path of a file of the app. */
  path(relative: string): string;
};

/** Runs the first day of `app` against the system and the model stand-in. */
export async function adoptRealApp(
  app: RealApp,
  system: System,
  model: ProviderStandIn,
): Promise<AdoptedApp> {
  const { token } = await system.signUp();
  const cli = await createCliHarness(system.base);
  await copyRealApp(app, cli.cwd);
  const seconds = { init: 0, push: 0, status: 0, translate: 0, pull: 0, check: 0 };
  const tolk = async (step: Step, ...args: string[]) => {
    const started = performance.now();
    const result = await cli.tolk([step, ...args], { env: { TOLK_TOKEN: token } });
    seconds[step] += (performance.now() - started) / 1000;
    return result;
  };
  const locales = async () => {
    const status = await tolk('status', '--json');
    if (status.code !== 0) throw new Error(`tolk status of ${app}: ${status.stderr}`);
    return status.json().locales as LocaleResponse[];
  };

  const init = await tolk('init', '--name', app, '--yes', '--json');
  const config = (await cli.readJson('tolk.json')) as AdoptedApp['config'];
  const push = await tolk('push');
  const afterPush = await locales();
  const translate = await tolk('translate', '--base-url', model.baseURL, '--model', 'stand-in', '--json');
  const afterTranslate = await locales();
  const pull = await tolk('pull');
  const check = await tolk('check', '--json');
  // DESIGN §16: a second translate and pull find nothing to do and write no byte.
  const files = await snapshot(cli.cwd);
  const again = {
    translate: await tolk('translate', '--base-url', model.baseURL, '--model', 'stand-in', '--json'),
    pull: await tolk('pull'),
  };
  const after = await snapshot(cli.cwd);
  const changedByRerun = [...new Set([...files.keys(), ...after.keys()])].filter(
    (file) => !files.get(file)?.equals(after.get(file) ?? Buffer.alloc(0)) || !after.has(file),
  );
  return {
    app,
    cli,
    config,
    runs: { init, push, translate, pull, check },
    again,
    changedByRerun,
    afterPush,
    afterTranslate,
    findings: check.code === 0 || check.code === 1 ? (check.json().findings as CheckFinding[]) : [],
    seconds,
    path: (relative) => `${cli.cwd}/${relative}`,
  };
}

/** Every file of the app but Tolk's own state: its bytes and modification time, by relative path. */
async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const file = relative(dir, path);
    if (file.startsWith('.tolk')) continue;
    const { mtimeMs } = await stat(path);
    files.set(file, Buffer.concat([await readFile(path), Buffer.from(`\0${mtimeMs}`)]));
  }
  return files;
}

/**
 * Runs `work` on each item, at most `concurrency` at a time, keeping the items' order in the
 * answers.
 */
export async function inPool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const answers: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      answers[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return answers;
}
