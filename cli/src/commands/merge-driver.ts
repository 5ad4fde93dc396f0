/**
 * `tolk merge-driver`: git's merge driver for the locale files of tolk.json's file sets (DESIGN
 * §17), and its registration (`--install`, `--uninstall`).
 *
 * Git runs it with the common ancestor's, ours and theirs versions of a file in temporary files,
 * and the file's path. It merges them key by key in the file's own format and layout
 * (merge-locale-file.ts) and leaves the result in ours' file: exit 0 when merged; exit 1 when both
 * sides changed a key differently, with git's conflict markers around those keys' entries (a
 * git user resolves them as any conflict: edit, `git add`) and the keys named on stderr. A file
 * that no file set claims, that does not parse, or whose changes the format cannot carry (a
 * comment or header changed on both sides) is left to git's own text merge, saying why.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { findProjectConfig, loadProjectConfig } from '../config/project-config.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import { MAX_SHARED_FILE_BYTES, readBytes } from '../files/file-sets.js';
import type { Io } from '../io.js';
import { createOutput } from '../output.js';
import { mergeFileInPlace, mergeTexts } from '../merge-driver/git.js';
import { DRIVER, installDriver, uninstallDriver } from '../merge-driver/install.js';
import { mergeLocaleFile } from '../merge-driver/merge-locale-file.js';
import { mergeSubjectOf } from '../merge-driver/subject.js';

/** How git names a conflicting merge's exit: anything but 0. */
const CONFLICT = 1;

export type MergeDriverOptions = {
  ancestor: string;
  ours: string;
  theirs: string;
  /** The file's path in the work tree, relative to where git runs the driver (its top folder). */
  path: string | undefined;
  markerSize: number;
};

/** Merges one locale file as git's merge driver: exit 0 merged, 1 conflicts left in `ours`. */
export async function mergeDriver(io: Io, options: MergeDriverOptions): Promise<number> {
  const { ancestor, ours, theirs, markerSize } = options;
  const at = (file: string) => resolve(io.cwd, file);
  const note = (text: string) => io.stderr.write(`tolk merge-driver: ${text}\n`);
  const shownPath = options.path ?? ours;
  const asText = (reason: string) => {
    note(`${shownPath}: merged as text by git merge-file: ${reason}`);
    const { conflicted } = mergeFileInPlace(at(ours), at(ancestor), at(theirs), markerSize, io.cwd);
    return conflicted ? CONFLICT : ExitCode.ok;
  };
  if (options.path === undefined) return asText('git gave no path (merge.tolk.driver lacks %P)');

  const path = at(options.path);
  let merge;
  try {
    const config = await findProjectConfig(dirname(path));
    if (config === undefined) return asText(`no tolk.json in its folder or above`);
    const loaded = await loadProjectConfig(dirname(config));
    const subject = await mergeSubjectOf(loaded, path, io.cwd);
    if (!subject) return asText(`no file set of ${relative(io.cwd, config) || config} claims it`);
    const read = async (file: string) =>
      (await readBytes(at(file), io.cwd, MAX_SHARED_FILE_BYTES)) ?? Buffer.alloc(0);
    const files = { base: await read(ancestor), ours: await read(ours), theirs: await read(theirs) };
    merge = mergeLocaleFile(subject, files, (mine, base, other) =>
      mergeTexts(mine, base, other, markerSize, io.cwd),
    );
  } catch (error) {
    // Whatever stops the merge by key (tolk.json that does not read, a file too large), git's
    // text merge still does its work.
    if (!(error instanceof CliError)) throw error;
    return asText(error.message);
  }

  switch (merge.status) {
    case 'merged':
      await writeFile(at(ours), merge.bytes);
      return ExitCode.ok;
    case 'conflict':
      await writeFile(at(ours), merge.bytes);
      note(`${shownPath}: ${conflictText(merge.keys)}; conflict markers are around their entries`);
      return CONFLICT;
    case 'conflict-unplaced':
      note(`${shownPath}: ${conflictText(merge.keys)}`);
      asText(merge.reason);
      return CONFLICT;
    case 'unmergeable':
      return asText(merge.reason);
  }
}

function conflictText(keys: readonly string[]): string {
  const shown = keys.slice(0, 20).join(', ') + (keys.length > 20 ? `, and ${keys.length - 20} more` : '');
  return `both sides changed ${keys.length === 1 ? 'a key' : `${keys.length} keys`} differently: ${shown}`;
}

/** `tolk merge-driver --install` / `--uninstall`: the driver registered in this repository, or taken out. */
export async function registerMergeDriver(
  io: Io,
  options: { uninstall: boolean; command: string; json: boolean },
): Promise<number> {
  const out = createOutput(io, options.json);
  const loaded = await loadProjectConfig(io.cwd);
  const shown = (file: string) => relative(io.cwd, file) || file;
  if (options.uninstall) {
    const removed = await uninstallDriver(loaded);
    out.line(
      removed.changed
        ? `Took the merge driver out: the merge=${DRIVER} lines of ${shown(removed.gitattributes)} and git config merge.${DRIVER}.`
        : 'The merge driver was not installed here; nothing changed.',
    );
    out.document({ uninstalled: true, changed: removed.changed });
    return ExitCode.ok;
  }
  const installed = await installDriver(loaded, options.command);
  if (!installed.changed) out.line('The merge driver is installed already; nothing changed.');
  else {
    out.line(`Git now merges these locale files key by key (${shown(installed.gitattributes)}):`);
    for (const pattern of installed.patterns) out.line(`  ${pattern}`);
    out.line(
      `Commit ${shown(installed.gitattributes)}; each clone runs \`tolk merge-driver --install\` once (git config merge.${DRIVER}.driver is not committed).`,
    );
  }
  out.document({ ...installed, gitattributes: shown(installed.gitattributes) });
  return ExitCode.ok;
}

/** Exit 2 for a driver run given other than three files. */
export function checkDriverArguments(files: readonly string[]): void {
  if (files.length < 3 || files.length > 4) {
    throw usageError(
      'give the ancestor, ours and theirs files and the path (git gives them: %O %A %B %P), or --install',
    );
  }
}
