/**
 * The merge driver registered in a git repository: `.gitattributes` lines that give the locale
 * files of tolk.json's file sets the `merge=tolk` attribute (committed, so every clone has them),
 * and the driver's command in the repository's own git config (each clone's, never committed).
 * Both are written idempotently: installing again changes nothing, and `--uninstall` takes out
 * exactly what installing put in.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  LOCALE_PLACEHOLDER,
  NAMESPACE_PLACEHOLDER,
  fileSets,
  type LoadedProjectConfig,
} from '../config/project-config.js';
import { CliError, ExitCode } from '../errors.js';
import { LABELS, git } from './git.js';

/** The driver's name in `merge=tolk` and `merge.tolk.*`. */
export const DRIVER = 'tolk';
const ATTRIBUTE = `merge=${DRIVER}`;
const HEADING = '# Locale files of tolk.json, merged key by key (tolk merge-driver --install)';
export const GITATTRIBUTES = '.gitattributes';
/** How git runs tolk, unless `--command` says otherwise: from the PATH, as a global install puts it. */
export const DRIVER_COMMAND = 'tolk';

/**
 * The driver's command line for git: `tolk merge-driver` with git's placeholders (ancestor, ours,
 * theirs, the path and the conflict marker size). Where `command` is not on the PATH of the
 * process git runs it from, git's own text merge runs instead, as if there were no driver: a
 * clone without tolk installed gets the merge it always got, never a file left unmerged.
 */
export function driverCommand(command: string): string {
  const program = command.trim().split(/\s+/)[0]!;
  return (
    `if command -v ${program} >/dev/null 2>&1; ` +
    `then ${command} merge-driver --marker-size %L %O %A %B %P; ` +
    `else git merge-file --marker-size=%L -L ${LABELS.ours} -L ${LABELS.base} -L ${LABELS.theirs} %A %O %B; fi`
  );
}

/**
 * The `.gitattributes` patterns of the file sets' files, relative to tolk.json's folder (where the
 * file goes): each `{locale}` and `{namespace}` any name, a glob as it is, a set's own source
 * path as it is. Anchored with `/`, so that `{locale}.json` matches there only. A pattern may
 * match a file that is no locale file of the project (`locales/*.json` a `locales/schema.json`):
 * the driver leaves such a file to git's text merge.
 */
export function attributePatterns(loaded: LoadedProjectConfig): string[] {
  const patterns = new Set<string>();
  for (const set of fileSets(loaded)) {
    patterns.add(set.path.replaceAll(LOCALE_PLACEHOLDER, '*').replaceAll(NAMESPACE_PLACEHOLDER, '*'));
    if (set.source !== undefined) patterns.add(set.source);
  }
  return [...patterns].map((pattern) => `/${pattern}`);
}

/** A pattern as a `.gitattributes` line writes it: C-quoted when it holds a space or a quote. */
function quoted(pattern: string): string {
  return /[\s"\\]/.test(pattern) ? `"${pattern.replace(/["\\]/g, '\\$&')}"` : pattern;
}

/** Whether a line of `.gitattributes` is the driver's: its heading, or a pattern given `merge=tolk`. */
function isDriverLine(line: string): boolean {
  if (line.trim() === HEADING) return true;
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return false;
  return trimmed.split(/\s+/).slice(1).includes(ATTRIBUTE);
}

/**
 * `.gitattributes` (its text, or undefined when there is none) with the driver's lines for
 * `patterns`: in place of the driver's lines it has, else at its end. Every other line stays.
 */
export function withDriverLines(text: string | undefined, patterns: readonly string[]): string {
  const block = [HEADING, ...patterns.map((pattern) => `${quoted(pattern)} ${ATTRIBUTE}`)];
  const newline = text?.includes('\r\n') ? '\r\n' : '\n';
  const lines = text === undefined || text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const first = lines.findIndex(isDriverLine);
  const kept = lines.filter((line) => !isDriverLine(line));
  if (first !== -1) kept.splice(first, 0, ...block);
  else {
    if (kept.length > 0 && kept[kept.length - 1]!.trim() !== '') kept.push('');
    kept.push(...block);
  }
  return kept.join(newline) + newline;
}

/** `.gitattributes` without the driver's lines; undefined when nothing else is left in it. */
export function withoutDriverLines(text: string): string | undefined {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
  const kept = lines.filter((line) => !isDriverLine(line));
  while (kept.length > 0 && kept[kept.length - 1]!.trim() === '') kept.pop();
  return kept.length === 0 ? undefined : kept.join(newline) + newline;
}

/** The top folder of the git work tree `dir` is in; exit 2 when it is in none. */
export function gitWorkTree(dir: string): string {
  const { status, stdout } = git(['rev-parse', '--show-toplevel'], dir);
  if (status !== 0) {
    throw new CliError(
      'NOT_A_GIT_REPOSITORY',
      `${dir} is not in a git repository: the merge driver is registered in one (git init first)`,
      ExitCode.usage,
    );
  }
  return stdout.trim();
}

export type Installed = {
  /** The `.gitattributes` file written. */
  gitattributes: string;
  patterns: string[];
  /** The driver's command, as git config holds it. */
  driver: string;
  /** Whether anything changed (false: it was installed so already). */
  changed: boolean;
};

/** Registers the driver for the project's file sets in its git repository. */
export async function installDriver(loaded: LoadedProjectConfig, command: string): Promise<Installed> {
  gitWorkTree(loaded.dir);
  const gitattributes = join(loaded.dir, GITATTRIBUTES);
  const patterns = attributePatterns(loaded);
  const before = await readText(gitattributes);
  const after = withDriverLines(before, patterns);
  if (after !== before) await writeFile(gitattributes, after);
  const driver = driverCommand(command);
  const settings: [string, string][] = [
    [`merge.${DRIVER}.name`, 'Tolk: locale files merged key by key'],
    [`merge.${DRIVER}.driver`, driver],
  ];
  let configChanged = false;
  for (const [name, value] of settings) {
    if (git(['config', '--local', '--get', name], loaded.dir).stdout.replace(/\n$/, '') === value) continue;
    const { status, stderr } = git(['config', '--local', name, value], loaded.dir);
    if (status !== 0)
      throw new CliError('GIT_FAILED', `git config ${name}: ${stderr.trim()}`, ExitCode.failure);
    configChanged = true;
  }
  return { gitattributes, patterns, driver, changed: after !== before || configChanged };
}

/** Takes the driver out of the project's repository: its `.gitattributes` lines and its git config. */
export async function uninstallDriver(
  loaded: LoadedProjectConfig,
): Promise<{ gitattributes: string; changed: boolean }> {
  gitWorkTree(loaded.dir);
  const gitattributes = join(loaded.dir, GITATTRIBUTES);
  const before = await readText(gitattributes);
  let changed = false;
  if (before !== undefined) {
    const after = withoutDriverLines(before);
    if (after === undefined) await rm(gitattributes);
    else if (after !== before) await writeFile(gitattributes, after);
    changed = after !== before;
  }
  // Exit 128 when the section is not there: nothing to take out.
  if (git(['config', '--local', '--remove-section', `merge.${DRIVER}`], loaded.dir).status === 0)
    changed = true;
  return { gitattributes, changed };
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
