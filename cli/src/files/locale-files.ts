import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { LocaleFileError, parseSourceDocument, type ParsedSource } from '@tolk/locale-file';
import { CliError, ExitCode } from '../errors.js';

/** A locale file as JSON, or undefined when there is none; a file that is not JSON is exit 2. */
export async function readLocaleFile(path: string, cwd: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError('FILE_ERROR', `${shown(path, cwd)}: ${(error as Error).message}`, ExitCode.usage);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(
      'INVALID_JSON',
      `${shown(path, cwd)}: not valid JSON (${(error as Error).message})`,
      ExitCode.usage,
    );
  }
}

/** A locale document checked by the same rules as the server's (@tolk/locale-file): exit 2 naming the key. */
export function parseLocaleDocument(document: unknown, path: string, cwd: string): ParsedSource {
  try {
    return parseSourceDocument(document);
  } catch (error) {
    if (error instanceof LocaleFileError) {
      const code = error.code === 'TOO_MANY_KEYS' ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR';
      throw new CliError(code, `${shown(path, cwd)}: ${error.message}`, ExitCode.usage);
    }
    throw error;
  }
}

/** Writes JSON the way people keep locale files: two-space indent, a final newline, whole or not at all. */
export async function writeLocaleFile(path: string, document: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(document, null, 2) + '\n');
  await rename(temporary, path);
}

/** A path as the user sees it: relative to where they are. */
export function shown(path: string, cwd: string): string {
  const fromCwd = relative(cwd, path);
  return fromCwd && !fromCwd.startsWith('..') ? fromCwd : path;
}
