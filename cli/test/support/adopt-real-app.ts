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
import { diffArrays } from 'diff';
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

/** A line that is a comment in one of the formats' syntaxes: `#`, `!`, `//`, a C block comment, `<!-- -->`. */
const COMMENT = /^\s*(?:#|!|\/\/|\/\*|\*)|<!--|-->/;
const isLayout = (line: string) => line.trim() === '' || COMMENT.test(line);

/** A file read as entries: `<locale> <key>` → its value, `<locale> <key> @` → its annotation. */
type Entries = ReadonlyMap<string, string>;

/** The entries whose value or annotation differs. */
function differing(a: Entries, b: Entries): Set<string> {
  return new Set([...new Set([...a.keys(), ...b.keys()])].filter((id) => a.get(id) !== b.get(id)));
}

/**
 * The lines of a target file as the app had it (`before`) that the file written (`after`) lost
 * outside the entries Tolk wrote (DESIGN §16), each as `line N: text`.
 *
 * The two are compared line by line (anchoredDiff; a JSON file's lines without their trailing
 * comma, which an entry added after them gives them). Each run of lines removed, with the lines
 * added in its place, is a change of its own. A change that replaces lines of content by others
 * rewrites values: that the line of every key it does not write stays is the caller's check. A
 * change that removes a blank or comment line, or removes lines with nothing in their place, is
 * applied alone to `before` and the file read (`read`): it must change entries (a value or an
 * annotation), and only entries that differ between `before` and `after`, the ones written; and
 * unless it removes an entry whole (then its comments and the line around it go with it), each
 * of its blank and comment lines must matter: the change with that line kept reads otherwise (a
 * blank line in a value, a comment of an entry whose annotation Tolk changed).
 */
export function linesRemovedOutsideEntries(options: {
  before: string;
  after: string;
  json: boolean;
  read: (text: string) => Entries | undefined;
}): string[] {
  const { before, after, read } = options;
  const eol = before.includes('\r\n') ? '\r\n' : '\n';
  const old = before.split(/\r?\n/);
  const same = (line: string) => (options.json ? line.replace(/,\s*$/, '') : line);
  const changes: { start: number; end: number; added: string[] }[] = [];
  let at = 0;
  let open: { start: number; end: number; added: string[] } | undefined;
  for (const part of anchoredDiff(old.map(same), after.split(/\r?\n/).map(same))) {
    if (!part.added && !part.removed) {
      if (open) changes.push(open);
      open = undefined;
      at += part.count;
      continue;
    }
    open ??= { start: at, end: at, added: [] };
    if (part.removed) open.end = at += part.count;
    else open.added.push(...part.value);
  }
  if (open) changes.push(open);
  const suspect = changes.filter(
    ({ start, end, added }) => end > start && (added.length === 0 || old.slice(start, end).some(isLayout)),
  );
  if (suspect.length === 0) return [];

  // Read only when a change needs it: most files have none, and a 2 MB catalog is read per locale.
  const [readBefore, readAfter] = [read(before), read(after)];
  if (!readBefore || !readAfter) return ['the file does not read, before or after'];
  // Written: a value that changed or went, and the annotation of such a key only (a comment of an
  // entry whose value stays is no entry written).
  const changed = differing(readBefore, readAfter);
  const written = new Set([...changed].filter((id) => changed.has(id.replace(/ @$/, ''))));
  const outside: string[] = [];
  for (const { start, end, added } of suspect) {
    const shown = (index: number) => `line ${index + 1}: ${old[index]}`;
    /** The change applied alone, read; with `kept`, that line of it stays where it was. */
    const applied = (kept?: number) => {
      const middle =
        kept === undefined
          ? added
          : old.slice(start, kept).every(isLayout)
            ? [old[kept]!, ...added]
            : [...added, old[kept]!];
      return read([...old.slice(0, start), ...middle, ...old.slice(end)].join(eol));
    };
    const alone = applied();
    const touched = alone ? differing(readBefore, alone) : new Set<string>();
    if (touched.size === 0 || [...touched].some((id) => !written.has(id))) {
      for (let index = start; index < end; index++) outside.push(shown(index));
      continue;
    }
    // An entry removed whole takes its comments and the lines around it along.
    if ([...touched].some((id) => !id.endsWith(' @') && !readAfter.has(id))) continue;
    for (let index = start; index < end; index++) {
      if (!isLayout(old[index]!)) continue;
      const kept = applied(index);
      if (kept && differing(alone!, kept).size === 0) outside.push(shown(index));
    }
  }
  return outside;
}

/**
 * The line diff of `old` and `now`, as `diff`'s diffArrays gives it, anchored first on the lines
 * found once in each, in the same order (patience diff): Myers' diff then runs between anchors,
 * fast where a file of 60,000 lines gets thousands of lines (a String Catalog of 18 locales).
 */
function anchoredDiff(
  old: string[],
  now: string[],
): { added?: boolean; removed?: boolean; count: number; value: string[] }[] {
  const counts = new Map<string, [number, number, number]>();
  old.forEach((line, index) => {
    const count = counts.get(line) ?? counts.set(line, [0, 0, index]).get(line)!;
    count[0]++;
    count[2] = index;
  });
  const anchors: [number, number][] = [];
  for (const line of now) {
    const count = counts.get(line);
    if (count) count[1]++;
  }
  now.forEach((line, index) => {
    const count = counts.get(line);
    if (!count || count[0] !== 1 || count[1] !== 1) return;
    const last = anchors.at(-1);
    if (!last || count[2] > last[0]) anchors.push([count[2], index]);
  });
  const parts: { added?: boolean; removed?: boolean; count: number; value: string[] }[] = [];
  let [i, j] = [0, 0];
  for (const [a, b] of [...anchors, [old.length, now.length] as [number, number]]) {
    parts.push(...diffArrays(old.slice(i, a), now.slice(j, b)));
    if (a < old.length) parts.push({ count: 1, value: [old[a]!] });
    [i, j] = [a + 1, b + 1];
  }
  return parts;
}

/**
 * A locale document flattened for linesRemovedOutsideEntries: each key's value by `<locale>
 * <key>`, its annotation (`@key`) by `<locale> <key> @`, a file's metadata (`@@locale`) by its
 * name.
 */
export function flatEntries(locale: string, document: Record<string, unknown>, into: Map<string, string>) {
  const walk = (value: unknown, path: string) => {
    if (typeof value !== 'object' || value === null) {
      into.set(`${locale} ${path}`, String(value));
      return;
    }
    for (const [name, inner] of Object.entries(value)) {
      const key = path === '' ? name : `${path}.${name}`;
      if (name.startsWith('@@')) into.set(`${locale} ${key}`, JSON.stringify(inner));
      else if (name.startsWith('@'))
        into.set(
          `${locale} ${path === '' ? name.slice(1) : `${path}.${name.slice(1)}`} @`,
          JSON.stringify(inner),
        );
      else walk(inner, key);
    }
  };
  walk(document, '');
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
