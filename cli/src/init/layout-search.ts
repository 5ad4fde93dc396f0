/**
 * What every layout detector of `tolk init` shares: the one listing of the app's tree (taken once,
 * with the folders that never hold an app's own locale files left out), the shape of a file set
 * found, and the detector's signature. Each ecosystem's detector is a module of `layouts/`.
 */
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { glob } from 'tinyglobby';
import type { FileSetConfig } from '../config/project-config.js';
import type { FormatName } from '../formats/index.js';

/** One file set of tolk.json's `files` array, as the config module reads it; `format` one of ours. */
export type FileSet = FileSetConfig & { format: FormatName };

export type DetectedFileSet = {
  fileSet: FileSet;
  /** The locales whose files are on disk (canonical BCP 47), sorted. */
  locales: string[];
  /** The files found, relative to the directory, sorted. */
  files: string[];
};

/** A file of a locale found on disk. */
export type FoundFile = {
  path: string;
  locale: string;
  /** How the path spells the locale, when the format spells it otherwise (`zh_CN`). */
  spelled?: string;
  /** Below a locale folder: the file's path under it, without the extension. */
  namespace?: string;
  /** Its messages once read (an i18next plural group counts once), when read. */
  messages?: number;
};

/**
 * How a file set tells its source locale:
 * - `declared`: the layout names it (a String Catalog's `sourceLanguage`, Flutter's template
 *   file, XLIFF's `source-language`, Xcode's `developmentRegion`, Android's `tools:locale`);
 * - `template`: its source is a file that names no locale (a POT, Android's `values/`, Java's
 *   `Messages.properties`, Angular's `messages.xlf`), English unless `--source` says otherwise;
 * - `files`: the source is one of its locales' files, which one the project decides.
 */
export type SourceClue =
  { kind: 'declared'; locale: string } | { kind: 'template'; file: string } | { kind: 'files' };

/** A file set found, with what choosing the source locale and naming namespaces needs. */
export type FoundFileSet = DetectedFileSet & {
  /** The files of each locale, the source's among them when it is one of the locales. */
  found: FoundFile[];
  /** The namespace it takes when the project has several file sets. */
  namespaceHint: string;
  source: SourceClue;
};

export type LayoutSearch = {
  root: string;
  /** Every file below the root a layout may be made of, relative, sorted. */
  paths: readonly string[];
  read(path: string): Promise<Buffer>;
  /** What was decided and why, for the user: files left out, and the reason. */
  notes: string[];
};

/** One ecosystem's detector: the file sets of its layouts in the tree. */
export type LayoutDetector = (search: LayoutSearch) => Promise<FoundFileSet[]>;

/**
 * Folders that hold copies, dependencies, build output or tests, never an app's own locale
 * files: vendored dependencies of every ecosystem (npm, Bundler, Composer, Go, CocoaPods,
 * Carthage, SwiftPM, pip), build output (dist, build, target, Rails' compiled assets, Xcode's DerivedData and archives),
 * test data (a test's fixtures, Java's and Android's test source sets), and a library's example
 * app. Hidden folders (`.git`, `.venv`, `.dart_tool`, `.next`, `.build`) are never listed.
 */
export const IGNORED_FOLDERS = [
  '**/node_modules/**',
  '**/bower_components/**',
  '**/jspm_packages/**',
  '**/vendor/**',
  '**/third_party/**',
  '**/third-party/**',
  '**/site-packages/**',
  '**/dist-packages/**',
  '**/Pods/**',
  '**/Carthage/**',
  '**/SourcePackages/**',
  '**/dist/**',
  '**/build/**',
  '**/out/**',
  '**/public/packs/**',
  '**/public/assets/**',
  '**/target/**',
  '**/tmp/**',
  '**/coverage/**',
  '**/DerivedData/**',
  '**/*.xcarchive/**',
  '**/test/**',
  '**/tests/**',
  '**/spec/**',
  '**/__tests__/**',
  '**/__fixtures__/**',
  '**/__mocks__/**',
  '**/fixtures/**',
  '**/testdata/**',
  '**/androidTest/**',
  // A library's example app, at the top of its repository (not `org/example/`, a Java package).
  'example/**',
  'examples/**',
];

/** Deep enough for Java packages in a module of a monorepo (`a/b/src/main/resources/org/x/y/z`). */
const SEARCH_DEPTH = 20;

const LISTED = [
  '**/*.{json,arb,yml,yaml,properties,xlf,xliff,po,pot,strings,stringsdict,storyboard,xib,xcstrings}',
  '**/values*/strings.xml',
  '**/*.xcodeproj/project.pbxproj',
];

/** The tree below `root` as the detectors see it. */
export async function searchTree(root: string): Promise<LayoutSearch> {
  const paths = await glob(LISTED, {
    cwd: root,
    ignore: IGNORED_FOLDERS,
    deep: SEARCH_DEPTH,
    followSymbolicLinks: false,
    dot: false,
  });
  paths.sort();
  return { root, paths, read: (path) => readFile(posix.join(root, path)), notes: [] };
}

/** The paths of the search that end in one of `extensions`. */
export function pathsEndingIn(search: LayoutSearch, extensions: readonly string[]): string[] {
  return search.paths.filter((path) => extensions.includes(posix.extname(path)));
}

export function distinct<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
