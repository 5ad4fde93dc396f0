/**
 * The files of a project (DESIGN §12): each namespace's files (namespace-files.ts) read and
 * written through their format, and the one server document the source files make together.
 */
import { mkdir, open, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  LocaleFileError,
  parseSourceDocument,
  sameEntries,
  targetKeys,
  type ParsedSource,
} from '@tolk/locale-file';
import { valueLines } from '../check/value-lines.js';
import type { LoadedProjectConfig } from '../config/project-config.js';
import { CliError, ExitCode } from '../errors.js';
import { FormatError, type FileFinding } from '../formats/index.js';
import { jsonSyntaxError } from '../formats/json-document.js';
import { parseLocaleDocument, shown } from './locale-files.js';
import { type NamespaceFile, namespaceFiles } from './namespace-files.js';

/** A namespace's source file as read through its format. */
export type SourcePart = {
  file: NamespaceFile;
  bytes: Buffer;
  document: Record<string, unknown>;
  parsed: ParsedSource;
};

/**
 * The largest locale file read: a file of one locale, and one that holds every locale (an Xcode
 * String Catalog). Reading a file costs 10 to 40 times its size (measured at 32 MiB: 0.3 GB for
 * JSON and XLIFF, 0.8 GB for Android, 1.2–1.3 GB for PO, .strings and YAML; 1.0 GB for a 64 MiB
 * catalog), so these keep the CLI near a gigabyte, where a 200 MB file would take eight. They are
 * far above what the server takes of one locale (10 MiB of JSON, 200,000 keys) and the largest
 * real files seen (a 2.2 MB catalog of 19 locales, 0.6 MB of XLIFF for one).
 */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;
export const MAX_SHARED_FILE_BYTES = 64 * 1024 * 1024;

/** A file's bytes, or undefined when there is none; too large or unreadable is exit 2. */
export async function readBytes(
  path: string,
  cwd: string,
  maxBytes = MAX_FILE_BYTES,
): Promise<Buffer | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError('FILE_ERROR', `${shown(path, cwd)}:1:1: ${(error as Error).message}`, ExitCode.usage);
  }
  try {
    // Measured before it is read: a 200 MB file is never held in memory.
    const { size } = await handle.stat();
    if (size > maxBytes) {
      throw new CliError(
        'FILE_TOO_LARGE',
        `${shown(path, cwd)}:1:1: ${mebibytes(size)}, larger than the ${mebibytes(maxBytes)} a locale file may be; ` +
          'split it (a file set of namespaces) or check that it is the file you meant',
        ExitCode.usage,
      );
    }
    return await handle.readFile();
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError('FILE_ERROR', `${shown(path, cwd)}:1:1: ${(error as Error).message}`, ExitCode.usage);
  } finally {
    await handle.close();
  }
}

function mebibytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
}

/** The cap of a file set's files: larger for a file that holds every locale. */
function capOf(file: NamespaceFile): number {
  return file.set.format.oneFileForAllLocales ? MAX_SHARED_FILE_BYTES : MAX_FILE_BYTES;
}

/**
 * A locale file that could not be read (DESIGN §15): an error of that file alone, named at its
 * line and column, left as it is; the other files and locales go on.
 */
export type FileFailure = {
  /** The file, as the user sees it. */
  file: string;
  locale: string;
  /** `INVALID_FILE` (it does not parse), `FILE_TOO_LARGE`, `FILE_ERROR` (it cannot be opened). */
  code: string;
  line: number;
  column: number;
  /** What is wrong with it. */
  reason: string;
  /** `file:line:column: reason`. */
  message: string;
};

/** What a file holds that its format allows and Tolk does not expect, its key the server document's. */
export type PlacedFinding = FileFinding & { locale: string };

/** A failure of a file as a FileFailure: its place from the message (`file:line:column: …`). */
function failureOf(error: CliError, locale: string, file: string): FileFailure {
  const place = error.message.startsWith(`${file}:`)
    ? /^:(\d+):(\d+): /.exec(error.message.slice(file.length))
    : null;
  const reason = place
    ? error.message.slice(file.length + place[0].length)
    : error.message.replace(`${file}: `, '');
  const line = place ? Number(place[1]) : 1;
  const column = place ? Number(place[2]) : 1;
  return {
    file,
    locale,
    code: error.code,
    line,
    column,
    reason,
    message: `${file}:${line}:${column}: ${reason}`,
  };
}

/**
 * A file read through its format into a locale document, with its findings (keys as the server
 * document's, under the file's namespace). A file that does not parse is exit 2 with its line and
 * column. `source`: it is the namespace's source file.
 */
export function readThroughFormat(
  file: NamespaceFile,
  bytes: Buffer,
  locale: string,
  path: string,
  cwd: string,
  source = false,
): { document: Record<string, unknown>; parsed: ParsedSource; findings: PlacedFinding[] } {
  if (file.set.legacy) {
    // The old single JSON file: JSON that does not parse is INVALID_JSON, at its place; its source
    // is held to the server's rules as it always was, its targets read by their entries as JSON's.
    const text = bytes.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      const { reason, position } = jsonSyntaxError(shown(path, cwd), text, (error as Error).message);
      throw new CliError(
        'INVALID_JSON',
        `${shown(path, cwd)}:${position!.line}:${position!.column}: ${reason}`,
        ExitCode.usage,
      );
    }
    if (source) {
      const parsed = parseLocaleDocument(json, path, cwd);
      return { document: json as Record<string, unknown>, parsed, findings: [] };
    }
  }
  const findings: FileFinding[] = [];
  let document: Record<string, unknown>;
  try {
    document = file.set.format.read({
      bytes,
      locale,
      path: shown(path, cwd),
      options: file.set.options,
      findings,
      ...(source ? { source } : {}),
    });
  } catch (error) {
    if (error instanceof FormatError) {
      const position = error.position ?? { line: 1, column: 1 };
      throw new CliError(
        error.code,
        `${error.path}:${position.line}:${position.column}: ${error.reason}`,
        ExitCode.usage,
      );
    }
    // A parser's recursion that a file nested without bound exhausts.
    if (error instanceof RangeError) {
      throw new CliError(
        'INVALID_FILE',
        `${shown(path, cwd)}:1:1: is nested too deeply to read`,
        ExitCode.usage,
      );
    }
    throw error;
  }
  let parsed: ParsedSource;
  try {
    parsed = parseSourceDocument(document);
  } catch (error) {
    if (!(error instanceof LocaleFileError)) throw error;
    // A rule of the server's documents (a value too long, too many keys): at the key's line.
    const key = error.details.path;
    const format = file.set.format.name;
    const lines =
      key === undefined
        ? undefined
        : valueLines(bytes.toString('utf8'), format, { locale, rails: file.set.options.rails === true });
    const line = key !== undefined && lines?.has(key) ? lines.lineOf(key) : 1;
    const code = error.code === 'TOO_MANY_KEYS' ? 'PAYLOAD_TOO_LARGE' : 'INVALID_FILE';
    throw new CliError(code, `${shown(path, cwd)}:${line}:1: ${error.message}`, ExitCode.usage);
  }
  const prefix = keyPrefix(file);
  return {
    document,
    parsed,
    findings: findings.map((finding) => ({
      ...finding,
      key: finding.key === null ? null : prefix + finding.key,
      locale,
    })),
  };
}

/** A file read, or why it could not be: every reason an error of that file alone. */
export type ReadResult =
  | { status: 'absent' }
  | {
      status: 'read';
      bytes: Buffer;
      document: Record<string, unknown>;
      parsed: ParsedSource;
      findings: PlacedFinding[];
    }
  | { status: 'failed'; failure: FileFailure };

/** A locale's file of a namespace read through its format; a file that cannot be read is its failure. */
export async function readLocaleFile(
  file: NamespaceFile,
  locale: string,
  path: string,
  cwd: string,
  source = false,
): Promise<ReadResult> {
  try {
    const bytes = await readBytes(path, cwd, capOf(file));
    if (bytes === undefined) return { status: 'absent' };
    return { status: 'read', bytes, ...readThroughFormat(file, bytes, locale, path, cwd, source) };
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return { status: 'failed', failure: failureOf(error, locale, shown(path, cwd)) };
  }
}

/** The source files of a project: those read, and those that could not be (each its failure). */
export type SourceFiles = {
  parts: SourcePart[];
  failed: { file: NamespaceFile; failure: FileFailure }[];
  findings: PlacedFinding[];
};

/**
 * Each namespace's source file read; a missing one is exit 2 (the file sets name a file that is
 * not there), one that does not parse is its failure, and the others are read.
 */
export async function readSourceFiles(
  loaded: LoadedProjectConfig,
  files: readonly NamespaceFile[],
  cwd: string,
): Promise<SourceFiles> {
  const { sourceLocale } = loaded.config;
  const result: SourceFiles = { parts: [], failed: [], findings: [] };
  for (const file of files) {
    const read = await readLocaleFile(file, sourceLocale, file.sourcePath, cwd, true);
    if (read.status === 'absent') {
      throw new CliError(
        'NO_SOURCE_FILE',
        `No source file at ${shown(file.sourcePath, cwd)} (the "files" pattern of tolk.json with ${sourceLocale})`,
        ExitCode.usage,
      );
    }
    if (read.status === 'failed') {
      result.failed.push({ file, failure: read.failure });
      continue;
    }
    const { format } = file.set;
    if (format.sourceLocaleOf && !file.set.legacy) {
      let own: string;
      try {
        own = format.sourceLocaleOf(read.bytes, shown(file.sourcePath, cwd));
      } catch (error) {
        if (error instanceof FormatError) throw new CliError(error.code, error.message, ExitCode.usage);
        throw error;
      }
      if (own !== sourceLocale) {
        throw new CliError(
          'SOURCE_LOCALE_MISMATCH',
          `${shown(file.sourcePath, cwd)} says its strings are written in ${own}; the project's source locale is ${sourceLocale}`,
          ExitCode.usage,
        );
      }
    }
    result.parts.push({ file, bytes: read.bytes, document: read.document, parsed: read.parsed });
    result.findings.push(...read.findings);
  }
  return result;
}

/**
 * Each namespace's source file read; exit 2 when one is missing or does not parse (a source of
 * the project is all its files: one left out would be keys deleted).
 */
export async function readSourceParts(
  loaded: LoadedProjectConfig,
  files: readonly NamespaceFile[],
  cwd: string,
): Promise<SourcePart[]> {
  const { parts, failed } = await readSourceFiles(loaded, files, cwd);
  const first = failed[0];
  if (first) throw new CliError(first.failure.code, first.failure.message, ExitCode.usage);
  return parts;
}

/** The server document of the parts: the root file's, or `{ namespace: document }`. */
export function serverDocument(parts: readonly SourcePart[]): Record<string, unknown> {
  const root = parts.find((part) => part.file.namespace === undefined);
  if (root) return root.document;
  // A file's own metadata (`@@locale` of ARB) is the file's business, written from its source file:
  // the server allows it only at the top of its document, not of a namespace.
  const withoutMetadata = (document: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(document).filter(([key]) => !key.startsWith('@@')));
  return Object.fromEntries(parts.map((part) => [part.file.namespace!, withoutMetadata(part.document)]));
}

/** The prefix of a namespace's keys in the server document. */
export function keyPrefix(file: NamespaceFile): string {
  return file.namespace === undefined ? '' : `${file.namespace}.`;
}

/**
 * A target file of a namespace in its format, in the source file's layout: `values` are the
 * locale's values by key of the server document. `synced`: the keys Tolk synced for the locale,
 * as the sync state holds them before this write (`.tolk/state.json`, keys of the server
 * document): an entry of the file on disk that the source lacks is removed only when synced
 * (WriteInput.synced).
 */
export function writeTargetBytes(options: {
  part: SourcePart;
  sourceLocale: string;
  locale: string;
  i18nextPlurals: boolean;
  valueOf: (key: string) => string | undefined;
  existing: Buffer | undefined;
  synced: ReadonlyMap<string, string>;
}): Buffer {
  const { part, sourceLocale, locale, i18nextPlurals, valueOf, existing, synced } = options;
  const prefix = keyPrefix(part.file);
  return part.file.set.format.write({
    source: part.bytes,
    sourceLocale,
    locale,
    valueOf: (key) => valueOf(prefix + key),
    target: targetKeys(part.parsed, locale, { i18nextPlurals }),
    ...(existing === undefined ? {} : { existing }),
    synced: (key) => synced.has(prefix + key),
    options: part.file.set.options,
  });
}

/** Locales' keys already worked out, by the parts' target key arrays they were made of. */
const localeKeysMade = new WeakMap<
  readonly SourcePart[],
  { made: string[][]; keys: ReadonlySet<string> }[]
>();

/**
 * The keys of a locale, as the server document has them: each namespace's source keys, a plural
 * group's as the locale's forms (DESIGN §11). A key of a target file outside them is one the
 * source lacks: the server ignores it, and the sync state never holds it. Locales of the same
 * plural categories have the same target keys (the same arrays): their set is made once.
 */
export function localeKeys(
  parts: readonly SourcePart[],
  locale: string,
  i18nextPlurals: boolean,
): ReadonlySet<string> {
  const made = parts.map((part) => targetKeys(part.parsed, locale, { i18nextPlurals }).keys);
  let known = localeKeysMade.get(parts);
  if (!known) localeKeysMade.set(parts, (known = []));
  const same = known.find((entry) => entry.made.every((keys, index) => keys === made[index]));
  if (same) return same.keys;
  const keys = new Set<string>();
  parts.forEach((part, index) => {
    const prefix = keyPrefix(part.file);
    for (const key of made[index]!) keys.add(prefix + key);
  });
  known.push({ made, keys });
  return keys;
}

/** The writes under way to files that hold every locale, by path. */
const sharedWrites = new Map<string, Promise<void>>();

/**
 * Writes a target file of a namespace (writeTargetBytes) and gives its path. A file that holds
 * every locale (`oneFileForAllLocales`) is read again right before it is written, one locale after
 * another, so that a locale's write never starts from a copy another locale's write has replaced.
 */
export async function writeTargetFile(
  options: Parameters<typeof writeTargetBytes>[0] & { cwd: string },
): Promise<string> {
  const { part, locale, cwd } = options;
  const path = part.file.pathOf(locale);
  if (!part.file.set.format.oneFileForAllLocales) {
    await writeChanged(path, writeTargetBytes(options), options.existing);
    return path;
  }
  const write = (sharedWrites.get(path) ?? Promise.resolve()).then(async () => {
    const existing = await readBytes(path, cwd, capOf(part.file));
    await writeChanged(path, writeTargetBytes({ ...options, existing }), existing);
  });
  const settled = write.catch(() => undefined);
  sharedWrites.set(path, settled);
  try {
    await write;
  } finally {
    if (sharedWrites.get(path) === settled) sharedWrites.delete(path);
  }
  return path;
}

/** A locale's local target files, read. */
export type LocalFiles = {
  /** Each key's value, by key of the server document. An empty value is no value (not translated). */
  values: Map<string, string>;
  /** The bytes of each file read. */
  existing: Map<SourcePart, Buffer>;
  findings: PlacedFinding[];
  /** The files that could not be read: their keys' values are unknown, and they are not written. */
  failed: Map<SourcePart, FileFailure>;
};

/** Each source part's values by key, for telling an empty target value from an empty source. */
const sourceValues = new WeakMap<SourcePart, Map<string, string>>();

function sourceValueOf(part: SourcePart, key: string): string | undefined {
  let values = sourceValues.get(part);
  if (!values) {
    values = new Map(part.parsed.keys.map((name, index) => [name, part.parsed.values[index]!]));
    sourceValues.set(part, values);
  }
  return values.get(key);
}

/**
 * The values of a locale's local target files, by key of the server document (each read through
 * its format, which leaves out what the file marks as not translated), with their findings and
 * the files that could not be read; undefined when the locale has no file at all. An empty
 * string is not translated (DESIGN §15), unless the source's text is empty too.
 */
export async function readLocalValues(
  parts: readonly SourcePart[],
  locale: string,
  cwd: string,
): Promise<LocalFiles | undefined> {
  const local: LocalFiles = { values: new Map(), existing: new Map(), findings: [], failed: new Map() };
  for (const part of parts) {
    const path = part.file.pathOf(locale);
    const read = await readLocaleFile(part.file, locale, path, cwd);
    if (read.status === 'absent') continue;
    if (read.status === 'failed') {
      local.failed.set(part, read.failure);
      continue;
    }
    local.existing.set(part, read.bytes);
    local.findings.push(...read.findings);
    const prefix = keyPrefix(part.file);
    read.parsed.keys.forEach((key, index) => {
      const value = read.parsed.values[index]!;
      if (value === '' && sourceValueOf(part, key) !== '') return;
      local.values.set(prefix + key, value);
    });
  }
  return local.existing.size === 0 && local.failed.size === 0 ? undefined : local;
}

/** The keys of `keys` that belong to the namespaces of `parts` (the keys of a file not read). */
export function keysOfParts(keys: Iterable<string>, parts: Iterable<{ file: NamespaceFile }>): Set<string> {
  const prefixes = [...parts].map((part) => keyPrefix(part.file));
  const found = new Set<string>();
  if (prefixes.length === 0) return found;
  for (const key of keys) if (prefixes.some((prefix) => key.startsWith(prefix))) found.add(key);
  return found;
}

/** Writes `bytes` unless the file holds them already (DESIGN §16: nothing to change writes no byte). */
async function writeChanged(path: string, bytes: Buffer, existing: Buffer | undefined): Promise<void> {
  if (existing?.equals(bytes)) return;
  await writeBytes(path, bytes);
}

export async function writeBytes(path: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, path);
}

/** The source files as the user sees them: one file, or how many of the source locale. */
export function describeSource(parts: readonly { file: NamespaceFile }[], locale: string, cwd: string) {
  return parts.length === 1 ? shown(parts[0]!.file.sourcePath, cwd) : `${parts.length} ${locale} files`;
}

/**
 * The local source files each target file is written in the layout of, read through their
 * formats; a warning when together they differ from the server's source. The old single JSON
 * file that is missing, broken or different is laid out as the server's source, as it always was.
 * A source file that cannot be read is its failure: its namespace's targets are neither read
 * nor written, and the other namespaces go on.
 */
export async function layoutParts(options: {
  project: LoadedProjectConfig;
  cwd: string;
  note: (text: string) => void;
  serverSourceDocument: Record<string, unknown>;
  source: ParsedSource;
  version: number;
}): Promise<SourceFiles> {
  const { project, cwd, note, serverSourceDocument, source, version } = options;
  const files = await namespaceFiles(project, cwd);
  const legacy = files.length === 1 && files[0]!.set.legacy ? files[0]! : undefined;
  let read: SourceFiles | undefined;
  try {
    read = await readSourceFiles(project, files, cwd);
  } catch (error) {
    if (!legacy || !(error instanceof CliError)) throw error;
  }
  const whole = read && read.failed.length === 0 ? read.parts : undefined;
  const local = whole && parseLocaleDocument(serverDocument(whole), project.file, cwd);
  if (local && !sameEntries(local, source)) {
    const shownFiles = describeSource(whole!, project.config.sourceLocale, cwd);
    note(
      `warning: ${shownFiles} ${whole!.length === 1 ? 'differs' : 'differ'} from the server's source (version ${version}); ` +
        "translating the server's version — run `tolk push` first to translate your changes",
    );
  }
  if (legacy && (!local || !sameEntries(local, source))) {
    const bytes = Buffer.from(JSON.stringify(serverSourceDocument, null, 2) + '\n');
    return {
      parts: [{ file: legacy, bytes, document: serverSourceDocument, parsed: source }],
      failed: [],
      findings: [],
    };
  }
  return read!;
}
