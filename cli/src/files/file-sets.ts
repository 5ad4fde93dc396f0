/**
 * The files of a project (DESIGN §12): each file set of tolk.json expanded into its namespaces by
 * listing the source locale's files on disk, the path of each (namespace, locale), and the one
 * server document the source files make together.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { escapePath, glob } from 'tinyglobby';
import { sameEntries, targetKeys, type ParsedSource } from '@tolk/locale-file';
import {
  LOCALE_PLACEHOLDER,
  NAMESPACE_PLACEHOLDER,
  fileSets,
  globStart,
  hasGlob,
  namespaceProblem,
  type FileSet,
  type LoadedProjectConfig,
} from '../config/project-config.js';
import { CliError, ExitCode } from '../errors.js';
import { FormatError } from '../formats/index.js';
import { parseLocaleDocument, shown } from './locale-files.js';

/** One namespace of a file set: its source file and the file of every other locale. */
export type NamespaceFile = {
  set: FileSet;
  /** The top-level key of the server document; undefined when the file's document is the root. */
  namespace: string | undefined;
  /** The source locale's file, absolute. */
  sourcePath: string;
  /** The file of a target locale, absolute. */
  pathOf(locale: string): string;
};

/** A namespace's source file as read through its format. */
export type SourcePart = {
  file: NamespaceFile;
  bytes: Buffer;
  document: Record<string, unknown>;
  parsed: ParsedSource;
};

function configError(loaded: LoadedProjectConfig, cwd: string, message: string): CliError {
  return new CliError('INVALID_CONFIG', `${shown(loaded.file, cwd)}: ${message}`, ExitCode.usage);
}

/** The pattern with `{locale}` (and `{namespace}`) filled in, relative to tolk.json. */
function fill(pattern: string, spelled: string, namespace?: string): string {
  let path = pattern.replaceAll(LOCALE_PLACEHOLDER, spelled);
  if (namespace !== undefined) path = path.replaceAll(NAMESPACE_PLACEHOLDER, namespace);
  return path;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Every namespace file of the project, found by listing the source locale's files; each
 * (namespace, locale) checked to be claimed by one file set only. Exit 2 for a namespace name
 * that cannot be a key, two namespaces of one name, or two file sets claiming one file.
 */
export async function namespaceFiles(loaded: LoadedProjectConfig, cwd: string): Promise<NamespaceFile[]> {
  const { sourceLocale, targetLocales } = loaded.config;
  const dir = loaded.dir;
  const files: NamespaceFile[] = [];
  for (const set of fileSets(loaded)) {
    const spelledSource = set.spell(sourceLocale);
    if (!set.path.includes(NAMESPACE_PLACEHOLDER) && !hasGlob(set.path)) {
      files.push({
        set,
        namespace: set.root ? undefined : set.namespace,
        sourcePath: resolve(dir, set.source ?? fill(set.path, spelledSource)),
        pathOf: (locale) => resolve(dir, fill(set.path, set.spell(locale))),
      });
      continue;
    }
    if (set.path.includes(NAMESPACE_PLACEHOLDER)) {
      const filled = fill(set.path, spelledSource);
      const [before, after] = filled.split(NAMESPACE_PLACEHOLDER) as [string, string];
      const pattern = `${escapePath(before)}*${escapePath(after)}`;
      const shape = new RegExp(`^${escapeRegExp(before)}([^/]+)${escapeRegExp(after)}$`);
      for (const match of await glob(pattern, { cwd: dir, onlyFiles: true, expandDirectories: false })) {
        const namespace = shape.exec(match)?.[1];
        if (namespace === undefined) continue;
        files.push({
          set,
          namespace,
          sourcePath: resolve(dir, match),
          pathOf: (locale) => resolve(dir, fill(set.path, set.spell(locale), namespace)),
        });
      }
    } else {
      // A glob: the namespace is the file's path below the folder the glob starts in.
      const prefix = set.path.slice(0, set.path.lastIndexOf('/', globStart(set.path)) + 1);
      const filledPrefix = fill(prefix, spelledSource);
      const pattern = escapePath(filledPrefix) + set.path.slice(prefix.length);
      for (const match of await glob(pattern, { cwd: dir, onlyFiles: true, expandDirectories: false })) {
        const rest = match.slice(filledPrefix.length);
        const namespace = rest.slice(0, rest.length - extname(rest).length);
        files.push({
          set,
          namespace,
          sourcePath: resolve(dir, match),
          pathOf: (locale) => resolve(dir, fill(prefix, set.spell(locale)) + rest),
        });
      }
    }
    if (!files.some((file) => file.set === set)) {
      throw configError(
        loaded,
        cwd,
        `${set.label}: no file of the source locale ${sourceLocale} matches ${fill(set.path, spelledSource)}`,
      );
    }
  }

  const claimed = new Map<string, { file: NamespaceFile; locale: string }>();
  for (const file of files) {
    const paths: [string, string][] = [
      [sourceLocale, file.sourcePath],
      ...targetLocales.map((locale): [string, string] => [locale, file.pathOf(locale)]),
    ];
    for (const [locale, path] of paths) {
      const first = claimed.get(path);
      if (first && first.file.set !== file.set) {
        throw configError(
          loaded,
          cwd,
          `${first.file.set.label} and ${file.set.label} both claim ${shown(path, cwd)} ` +
            `(${first.locale === locale ? locale : `${first.locale} and ${locale}`}); two file sets cannot claim the same file`,
        );
      }
      // A file that holds every locale is every locale's file.
      if (first && first.locale !== locale && !file.set.format.oneFileForAllLocales) {
        throw configError(
          loaded,
          cwd,
          `${file.set.label}: ${shown(path, cwd)} would be the file of both ${first.locale} and ${locale}; map their spellings apart in "locales"`,
        );
      }
      if (!first) claimed.set(path, { file, locale });
    }
  }
  const namespaces = new Map<string, NamespaceFile>();
  for (const file of files) {
    if (file.namespace === undefined) continue;
    const problem = namespaceProblem(file.namespace);
    if (problem)
      throw configError(loaded, cwd, `${file.set.label}: ${shown(file.sourcePath, cwd)}: ${problem}`);
    const first = namespaces.get(file.namespace);
    if (first) {
      throw configError(
        loaded,
        cwd,
        `${shown(first.sourcePath, cwd)} (${first.set.label}) and ${shown(file.sourcePath, cwd)} ` +
          `(${file.set.label}) are both the namespace ${JSON.stringify(file.namespace)}`,
      );
    }
    namespaces.set(file.namespace, file);
  }

  return files;
}

/** A file's bytes, or undefined when there is none. */
export async function readBytes(path: string, cwd: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError('FILE_ERROR', `${shown(path, cwd)}: ${(error as Error).message}`, ExitCode.usage);
  }
}

/**
 * A file read through its format into a locale document: exit 2 with the line and column.
 * `source`: it is the namespace's source file.
 */
export function readThroughFormat(
  file: NamespaceFile,
  bytes: Buffer,
  locale: string,
  path: string,
  cwd: string,
  source = false,
): { document: Record<string, unknown>; parsed: ParsedSource } {
  let document: Record<string, unknown>;
  if (file.set.legacy) {
    // The old single JSON file: read as it always was, with the same errors.
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw new CliError(
        'INVALID_JSON',
        `${shown(path, cwd)}: not valid JSON (${(error as Error).message})`,
        ExitCode.usage,
      );
    }
    const parsed = parseLocaleDocument(json, path, cwd);
    return { document: json as Record<string, unknown>, parsed };
  }
  try {
    document = file.set.format.read({
      bytes,
      locale,
      path: shown(path, cwd),
      options: file.set.options,
      ...(source ? { source } : {}),
    });
  } catch (error) {
    if (error instanceof FormatError) throw new CliError(error.code, error.message, ExitCode.usage);
    throw error;
  }
  return { document, parsed: parseLocaleDocument(document, path, cwd) };
}

/** Each namespace's source file read; exit 2 when one is missing or does not parse. */
export async function readSourceParts(
  loaded: LoadedProjectConfig,
  files: readonly NamespaceFile[],
  cwd: string,
): Promise<SourcePart[]> {
  const { sourceLocale } = loaded.config;
  const parts: SourcePart[] = [];
  for (const file of files) {
    const bytes = await readBytes(file.sourcePath, cwd);
    if (bytes === undefined) {
      throw new CliError(
        'NO_SOURCE_FILE',
        `No source file at ${shown(file.sourcePath, cwd)} (the "files" pattern of tolk.json with ${sourceLocale})`,
        ExitCode.usage,
      );
    }
    const { format } = file.set;
    if (format.sourceLocaleOf && !file.set.legacy) {
      let own: string;
      try {
        own = format.sourceLocaleOf(bytes, shown(file.sourcePath, cwd));
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
    parts.push({ file, bytes, ...readThroughFormat(file, bytes, sourceLocale, file.sourcePath, cwd, true) });
  }
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
 * locale's values by key of the server document.
 */
export function writeTargetBytes(options: {
  part: SourcePart;
  sourceLocale: string;
  locale: string;
  i18nextPlurals: boolean;
  valueOf: (key: string) => string | undefined;
  existing: Buffer | undefined;
}): Buffer {
  const { part, sourceLocale, locale, i18nextPlurals, valueOf, existing } = options;
  const prefix = keyPrefix(part.file);
  return part.file.set.format.write({
    source: part.bytes,
    sourceLocale,
    locale,
    valueOf: (key) => valueOf(prefix + key),
    target: targetKeys(part.parsed, locale, { i18nextPlurals }),
    ...(existing === undefined ? {} : { existing }),
    options: part.file.set.options,
  });
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
    await writeBytes(path, writeTargetBytes(options));
    return path;
  }
  const write = (sharedWrites.get(path) ?? Promise.resolve()).then(async () => {
    const existing = await readBytes(path, cwd);
    await writeBytes(path, writeTargetBytes({ ...options, existing }));
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

/**
 * The values of a locale's local target files, by key of the server document (each read through
 * its format); undefined when the locale has no file at all.
 */
export async function readLocalValues(
  parts: readonly SourcePart[],
  locale: string,
  cwd: string,
): Promise<{ values: Map<string, string>; existing: Map<SourcePart, Buffer> } | undefined> {
  const values = new Map<string, string>();
  const existing = new Map<SourcePart, Buffer>();
  for (const part of parts) {
    const path = part.file.pathOf(locale);
    const bytes = await readBytes(path, cwd);
    if (bytes === undefined) continue;
    existing.set(part, bytes);
    const { parsed } = readThroughFormat(part.file, bytes, locale, path, cwd);
    const prefix = keyPrefix(part.file);
    parsed.keys.forEach((key, index) => values.set(prefix + key, parsed.values[index]!));
  }
  return existing.size === 0 ? undefined : { values, existing };
}

/** Writes a file whole or not at all. */
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
 */
export async function layoutParts(options: {
  project: LoadedProjectConfig;
  cwd: string;
  note: (text: string) => void;
  serverSourceDocument: Record<string, unknown>;
  source: ParsedSource;
  version: number;
}): Promise<SourcePart[]> {
  const { project, cwd, note, serverSourceDocument, source, version } = options;
  const files = await namespaceFiles(project, cwd);
  const legacy = files.length === 1 && files[0]!.set.legacy ? files[0]! : undefined;
  let parts: SourcePart[] | undefined;
  try {
    parts = await readSourceParts(project, files, cwd);
  } catch (error) {
    if (!legacy || !(error instanceof CliError)) throw error;
  }
  const local = parts && parseLocaleDocument(serverDocument(parts), project.file, cwd);
  if (local && !sameEntries(local, source)) {
    const shownFiles = describeSource(parts!, project.config.sourceLocale, cwd);
    note(
      `warning: ${shownFiles} ${parts!.length === 1 ? 'differs' : 'differ'} from the server's source (version ${version}); ` +
        "translating the server's version — run `tolk push` first to translate your changes",
    );
  }
  if (legacy && (!local || !sameEntries(local, source))) {
    const bytes = Buffer.from(JSON.stringify(serverSourceDocument, null, 2) + '\n');
    return [{ file: legacy, bytes, document: serverSourceDocument, parsed: source }];
  }
  return parts!;
}
