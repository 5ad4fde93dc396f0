/**
 * The namespaces of a project's file sets (DESIGN §12): each set's pattern expanded by listing the
 * source locale's files on disk, and the path of each (namespace, locale).
 */
import { extname, resolve } from 'node:path';
import { escapePath, glob } from 'tinyglobby';
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
import { shown } from './locale-files.js';

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
