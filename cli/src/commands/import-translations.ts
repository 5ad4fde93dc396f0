/**
 * Adoption is an import (DESIGN §15): the translated values of every target file uploaded as a
 * person's, made from the source version a push has just stored. Values the formats read as not
 * translated are no values (readLocalValues leaves them out). The file's values are merged over
 * the server's (keys the file lacks keep the server's) and uploaded with the revision of the
 * download they were merged with (uploadMerged); the sync state then records them as synced, so
 * that `translate` neither uploads them again nor writes over them.
 */
import { access } from 'node:fs/promises';
import type { UploadTranslationsResponse } from '@tolk/contracts';
import type { TolkApi } from '../api/tolk-api.js';
import { CliError, ExitCode } from '../errors.js';
import {
  keysOfParts,
  localeKeys,
  readLocalValues,
  type LocalFiles,
  type SourcePart,
} from '../files/file-sets.js';
import type { FileProblems } from '../files/file-problems.js';
import { parseLocaleDocument } from '../files/locale-files.js';
import {
  keepRecords,
  loadSyncState,
  saveSyncState,
  syncedHashes,
  writeAhead,
  type SyncState,
} from '../files/sync-state.js';
import type { Io } from '../io.js';
import { createProgress, type Progress } from '../translate/progress.js';
import { valuesOf } from '../translate/merge.js';
import { uploadMerged } from '../translate/upload-merged.js';

/** Locales imported at once: each is one download and one upload of a whole locale. */
const CONCURRENT_LOCALES = 4;
/** Up to this many ignored keys are named in the line of a locale. */
const NAMED_IGNORED = 5;

/** What the import did for one target locale, as printed and in `--json`. */
export type ImportedLocale = {
  locale: string;
  /** The file's translated values taken by the server (those it ignored not counted). */
  imported: number;
  /** Keys of the locale with at least one error finding, as the server counts them (null: not uploaded). */
  errorCount: number | null;
  /** Keys with warnings but no error (null: not uploaded). */
  warningCount: number | null;
  /** Keys of the files the source does not have: ignored by the server (at most 100 named). */
  ignored: string[];
  ignoredCount: number;
  uploaded: boolean;
  /** The server's translations changed during the upload: the file's values were merged with them again. */
  mergedAgain?: { keys: number };
  error?: { code: string; message: string };
};

export type ImportResult = {
  locales: ImportedLocale[];
  /** Target locales of tolk.json with files that are not target locales on the server: skipped. */
  skipped: string[];
  exitCode: ExitCode;
};

/** Target locales whose files were read ahead, by locale: their values as readLocalValues gives them. */
export type ReadAhead = ReadonlyMap<string, Promise<LocalFiles | undefined>>;

/**
 * Starts reading the files of the locales an import takes first, while the source upload that
 * comes before it is under way (the files are read on this thread, the source is checked and
 * stored by the server meanwhile). A failure is the import's, when it takes the locale.
 */
export function readAhead(parts: readonly SourcePart[], locales: readonly string[], cwd: string): ReadAhead {
  const reads = new Map<string, Promise<LocalFiles | undefined>>();
  for (const locale of locales.slice(0, CONCURRENT_LOCALES)) {
    const read = readLocalValues(parts, locale, cwd);
    // Not taken when the push imports nothing: then its failure is nobody's.
    read.catch(() => undefined);
    reads.set(locale, read);
  }
  return reads;
}

/** Where the import goes: the project, its source files, the source version the values are made from. */
type ImportTarget = {
  io: Io;
  api: TolkApi;
  projectId: string;
  parts: readonly SourcePart[];
  /** The project's setting: which keys are a locale's (localeKeys). */
  i18nextPlurals: boolean;
  sourceVersion: number;
  dryRun: boolean;
};

/**
 * Imports the target files of `targetLocales` as made from `sourceVersion`, a few locales at once;
 * a locale whose upload fails is named with the server's message and the others go on (exit 6).
 */
export async function importTranslations(
  options: ImportTarget & {
    dir: string;
    targetLocales: readonly string[];
    json: boolean;
    problems: FileProblems;
    readAhead?: ReadAhead;
  },
): Promise<ImportResult> {
  const { io, api, projectId, parts } = options;
  const onServer = new Set((await api.listLocales(projectId)).locales.map((locale) => locale.locale));
  const state = await loadSyncState(options.dir);
  const skipped: string[] = [];
  const work: string[] = [];
  for (const locale of options.targetLocales) {
    if (onServer.has(locale)) work.push(locale);
    else if (await hasFiles(parts, locale)) skipped.push(locale);
  }
  // Each locale is read when its turn comes: its files are read while others are uploaded.
  const keyCount = parts.reduce((sum, part) => sum + part.parsed.keys.length, 0);
  const progress = createProgress(io.isTTY && !options.json ? io.stdout : io.stderr, {
    tty: io.isTTY && !options.json,
    locales: work.map((locale) => ({ locale, total: keyCount })),
  });
  const results: ImportedLocale[] = [];
  const queue = [...work];
  const worker = async () => {
    for (let locale = queue.shift(); locale; locale = queue.shift()) {
      progress.state(locale, 'reading');
      const local = await (options.readAhead?.get(locale) ?? readLocalValues(parts, locale, io.cwd));
      options.problems.addLocal(local);
      if (!local || local.values.size === 0) {
        progress.state(locale, 'nothing to import');
        continue;
      }
      results.push(await importLocale({ ...options, locale, local, state, progress }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_LOCALES, work.length) }, worker));
  progress.done();
  const order = new Map(work.map((locale, index) => [locale, index]));
  results.sort((a, b) => order.get(a.locale)! - order.get(b.locale)!);
  if (results.some((result) => result.uploaded)) await saveSyncState(options.dir, state);
  const failed = results.some((result) => result.error);
  return { locales: results, skipped, exitCode: failed ? ExitCode.partial : ExitCode.ok };
}

/** Whether a locale has a file of any namespace. */
async function hasFiles(parts: readonly SourcePart[], locale: string): Promise<boolean> {
  for (const part of parts) {
    try {
      await access(part.file.pathOf(locale));
      return true;
    } catch {
      // Not this namespace's.
    }
  }
  return false;
}

/** One locale: the file's values over the server's, uploaded as a person's; the sync state updated. */
async function importLocale(
  options: ImportTarget & { locale: string; local: LocalFiles; state: SyncState; progress: Progress },
): Promise<ImportedLocale> {
  const { io, locale, local, progress } = options;
  const result: ImportedLocale = {
    locale,
    imported: local.values.size,
    errorCount: null,
    warningCount: null,
    ignored: [],
    ignoredCount: 0,
    uploaded: false,
  };
  if (options.dryRun) return result;
  progress.state(locale, `uploading ${local.values.size} translations`);
  let merged = new Map<string, string>();
  try {
    const uploaded = await uploadMerged({
      api: options.api,
      projectId: options.projectId,
      locale,
      merge: async (translations) => {
        const server = valuesOf(parseLocaleDocument(JSON.parse(translations.content), locale, io.cwd));
        merged = server.size === 0 ? local.values : new Map([...server, ...local.values]);
        // No provenance claim: every value of the upload the server does not already have is a person's.
        // Own properties whatever the keys (`__proto__` too), made at once: a locale has tens of thousands.
        return {
          document: Object.fromEntries(merged),
          sourceVersion: options.sourceVersion,
          ownKeys: local.values.size,
        };
      },
    });
    const { answer, mergedAgain } = uploaded!;
    Object.assign(result, findingCounts(answer, local.values));
    result.uploaded = true;
    if (mergedAgain) result.mergedAgain = mergedAgain;
    // What the files hold is what is synced now; a file not read keeps the record of its keys.
    // A key the source lacks (a translator's own, which the server ignored) is never synced: the
    // state holding it would have `pull` remove it.
    const before = options.state.locales[locale] ?? new Map<string, string>();
    const keys = localeKeys(options.parts, locale, options.i18nextPlurals);
    const hashes = syncedHashes(merged, local.values, keys);
    keepRecords(hashes, before, keysOfParts(merged.keys(), local.failed.keys()));
    writeAhead(hashes, keys);
    options.state.locales[locale] = hashes;
    options.state.versions[locale] = options.sourceVersion;
    progress.keysDone(locale, local.values.size, 'imported');
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    result.error = { code: error.code, message: error.message };
    progress.state(locale, `import failed: ${error.code}`);
  }
  return result;
}

/** The counts of the upload's answer: the locale's findings and the keys of the files it ignored. */
function findingCounts(
  answer: UploadTranslationsResponse,
  values: ReadonlyMap<string, string>,
): Pick<ImportedLocale, 'imported' | 'errorCount' | 'warningCount' | 'ignored' | 'ignoredCount'> {
  return {
    imported: Math.max(0, values.size - answer.ignoredCount),
    errorCount: answer.errorCount,
    warningCount: answer.warningCount,
    ignored: answer.ignored,
    ignoredCount: answer.ignoredCount,
  };
}

/** What a person reads of a locale's import: `de: imported 820 translations, 3 with errors, 41 with warnings`. */
export function describeImport(result: ImportedLocale, dryRun: boolean): string {
  const { locale } = result;
  const translations = `${result.imported} translation${result.imported === 1 ? '' : 's'}`;
  if (result.error) return `${locale}: not imported: ${result.error.code}: ${result.error.message}`;
  if (dryRun) return `Dry run: ${locale}: ${translations} would be imported as a person's`;
  const parts = [`${locale}: imported ${translations}`];
  if (result.errorCount !== null) parts.push(`${result.errorCount} with errors`);
  if (result.warningCount !== null) parts.push(`${result.warningCount} with warnings`);
  if (result.ignoredCount > 0) {
    const named = result.ignored.slice(0, NAMED_IGNORED).join(', ');
    const more = result.ignoredCount > NAMED_IGNORED ? ', ...' : '';
    parts.push(
      `${result.ignoredCount} key${result.ignoredCount === 1 ? '' : 's'} ignored (not in the source: ${named}${more})`,
    );
  }
  return parts.join(', ');
}
