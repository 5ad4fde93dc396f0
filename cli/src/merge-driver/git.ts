/** The git commands the merge driver runs: its text merge (`git merge-file`) and its configuration. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError, ExitCode } from '../errors.js';

/** The names git's conflict markers give the two sides and the ancestor. */
export const LABELS = { ours: 'ours', base: 'base', theirs: 'theirs' } as const;

/** Runs git in `cwd`: its status and output; a missing git is exit 2. */
export function git(
  args: readonly string[],
  cwd: string,
): { status: number; stdout: string; stderr: string } {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    throw new CliError('NO_GIT', 'git is not installed (or not on the PATH)', ExitCode.usage);
  if (result.error) throw result.error;
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Git's own three-way text merge (`git merge-file`) of `ours` (the file at that path, merged in
 * place) with `base` and `theirs`: whether conflicts were left, marked as git marks them.
 */
export function mergeFileInPlace(
  ours: string,
  base: string,
  theirs: string,
  markerSize: number,
  cwd: string,
): { conflicted: boolean } {
  const { status, stderr } = git(
    [
      'merge-file',
      `--marker-size=${markerSize}`,
      '-L',
      LABELS.ours,
      '-L',
      LABELS.base,
      '-L',
      LABELS.theirs,
      ours,
      base,
      theirs,
    ],
    cwd,
  );
  // A positive status is the number of conflicts; a negative one (255) an error.
  if (status < 0 || status > 127) {
    throw new CliError('GIT_FAILED', `git merge-file failed: ${stderr.trim()}`, ExitCode.failure);
  }
  return { conflicted: status > 0 };
}

/** `git merge-file` of three texts held in memory: the merge, with git's conflict markers. */
export function mergeTexts(
  ours: Buffer,
  base: Buffer,
  theirs: Buffer,
  markerSize: number,
  cwd: string,
): { bytes: Buffer; conflicted: boolean } {
  const dir = mkdtempSync(join(tmpdir(), 'tolk-merge-'));
  try {
    const paths = { ours: join(dir, 'ours'), base: join(dir, 'base'), theirs: join(dir, 'theirs') };
    writeFileSync(paths.ours, ours);
    writeFileSync(paths.base, base);
    writeFileSync(paths.theirs, theirs);
    const { conflicted } = mergeFileInPlace(paths.ours, paths.base, paths.theirs, markerSize, cwd);
    return { bytes: readFileSync(paths.ours), conflicted };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
