import type { DiffResponse } from '@tolk/contracts';
import { tolkApi, type TolkApi } from '../api/tolk-api.js';
import { projectContext } from '../context.js';
import { CliError, ExitCode } from '../errors.js';
import {
  describeSource,
  localeKeys,
  readLocalValues,
  readSourceFiles,
  serverDocument,
  type SourcePart,
} from '../files/file-sets.js';
import { namespaceFiles } from '../files/namespace-files.js';
import { fileProblems, type FileProblems } from '../files/file-problems.js';
import { parseLocaleDocument } from '../files/locale-files.js';
import {
  hashValue,
  isUnsyncedLocal,
  loadSyncState,
  saveSyncState,
  type SyncState,
} from '../files/sync-state.js';
import type { Io } from '../io.js';
import { recordOf } from '../ai/translation-prompt.js';
import { valuesOf } from '../translate/merge.js';
import { describeMergedAgain, uploadMerged } from '../translate/upload-merged.js';
import { describeImport, importTranslations, readAhead, type ImportResult } from './import-translations.js';

/** Up to this many changed keys are listed one by one; more are counted. */
const LISTED_KEYS = 20;

/** Local edits of one target locale, uploaded (or not) as a person's translations. */
type HumanEdits = {
  locale: string;
  /** How many keys were edited. */
  keys: number;
  /** The source version they were uploaded as made from: the one the file was last synced to. */
  sourceVersion: number;
  uploaded: boolean;
  /** The server's translations changed during the upload: the edits were merged with them again. */
  mergedAgain?: { keys: number };
  error?: { code: string; message: string };
};

/**
 * Uploads the edits of the target files first (values that differ from what this working copy
 * last synced and from the server's, DESIGN §13: a person's translations), each locale as made
 * from the source version its file was synced to; then the source locale's files as one source
 * version (each read through its format and checked locally first, by the server's rules;
 * nothing is uploaded when one fails) and shows the diff. The edits go first so that they are
 * checked against the source they were made for, not one this push makes.
 *
 * The first push of a project (the server had no source version) and `--import` then import the
 * target files (DESIGN §15, importTranslations): every translated value as a person's, made from
 * the version just stored; with `--import` the edits go up with them, not before.
 */
export async function push(io: Io, options: { dryRun: boolean; json: boolean; import?: boolean }) {
  const { out, project, client } = await projectContext(io, options);
  const { projectId, sourceLocale } = project.config;
  const api = tolkApi(client);
  const sourceFiles = await readSourceFiles(project, await namespaceFiles(project, io.cwd), io.cwd);
  // A source is all its files: one that cannot be read would be its keys deleted. Nothing is uploaded.
  const unreadSource = sourceFiles.failed[0]?.failure;
  if (unreadSource) throw new CliError(unreadSource.code, unreadSource.message, ExitCode.usage);
  const { parts } = sourceFiles;
  const problems = fileProblems({ source: 'nothing was uploaded', target: 'its edits were not uploaded' });
  problems.addSource(sourceFiles);
  const file = describeSource(parts, sourceLocale, io.cwd);
  const document = serverDocument(parts);
  parseLocaleDocument(document, parts.length === 1 ? parts[0]!.file.sourcePath : project.file, io.cwd);
  // Which keys are a locale's (its plural forms): those of the files beyond them are not uploaded as edits.
  // A working copy that never synced a target locale is most likely adopting a project (its first
  // push imports every locale): the first locales' files are read while the source goes up. A
  // push that then imports nothing has read a few files in vain.
  const synced = await loadSyncState(project.dir);
  const adopting = options.import || project.config.targetLocales.every((locale) => !synced.locales[locale]);
  const ahead = adopting ? readAhead(parts, project.config.targetLocales, io.cwd) : undefined;
  const i18nextPlurals = (await api.getProject(projectId)).settings.i18nextPlurals ?? true;
  const { results: humanEdits, exitCode } = await pushTargetEdits({
    io,
    api,
    projectId,
    dir: project.dir,
    parts,
    i18nextPlurals,
    // An import takes every value of the files, the edits among them.
    targetLocales: options.import ? [] : project.config.targetLocales,
    dryRun: options.dryRun,
    problems,
    state: synced,
  });
  for (const edits of humanEdits) {
    const keys = `${edits.keys} edited translation${edits.keys === 1 ? '' : 's'}`;
    if (edits.mergedAgain) out.line(describeMergedAgain(edits.locale, edits.mergedAgain));
    if (edits.error)
      out.note(`${edits.locale}: ${keys} not uploaded: ${edits.error.code}: ${edits.error.message}`);
    else if (options.dryRun) out.line(`Dry run: ${edits.locale}: ${keys} would be uploaded as a person's`);
    else out.line(`${edits.locale}: uploaded ${keys} as a person's (source version ${edits.sourceVersion})`);
  }
  const answer = await api.putSource(projectId, document, options.dryRun);

  const changed = answer.diff.added.length + answer.diff.modified.length + answer.diff.deleted.length;
  const prefix = options.dryRun ? 'Dry run, nothing stored: ' : '';
  if (changed === 0) {
    out.line(
      `${prefix}${file} has no key changes; source version ${answer.version}, ${answer.keyCount} keys.`,
    );
  } else {
    const verb = options.dryRun ? 'would be' : 'is now';
    out.line(`${prefix}${file}: source version ${verb} ${answer.version}, ${answer.keyCount} keys.`);
    for (const line of describeDiff(answer.diff)) out.line(line);
  }
  // The first push of a project, and --import, take the target files as they are (DESIGN §15).
  let imported: ImportResult | undefined;
  if (options.import || isFirstVersion(answer)) {
    imported = await importTranslations({
      io,
      api,
      projectId,
      dir: project.dir,
      parts,
      i18nextPlurals,
      targetLocales: project.config.targetLocales,
      sourceVersion: answer.version,
      dryRun: options.dryRun,
      json: options.json,
      problems,
      readAhead: ahead,
    });
    for (const locale of imported.skipped)
      out.note(`${locale}: not a target locale of the project on the server; its files were not imported`);
    for (const result of imported.locales) {
      if (result.mergedAgain) out.line(describeMergedAgain(result.locale, result.mergedAgain));
      if (result.error) out.note(describeImport(result, options.dryRun));
      else out.line(describeImport(result, options.dryRun));
    }
  }
  if (answer.needsTranslation && !options.dryRun)
    out.line('Target locales are behind: run `tolk translate`.');
  problems.print(out.note);
  out.document({
    file,
    dryRun: options.dryRun,
    ...answer,
    humanEdits,
    ...(imported && { imported: { locales: imported.locales, skipped: imported.skipped } }),
    ...problems.document(),
  });
  return problems.exitCode(worse(exitCode, imported?.exitCode ?? ExitCode.ok));
}

/** Whether the push stored (or would store) the project's first source version: the server had none. */
function isFirstVersion(answer: { version: number; keyCount: number; diff: DiffResponse }): boolean {
  return answer.version === 1 && answer.keyCount > 0 && answer.diff.added.length === answer.keyCount;
}

/** The exit of two parts of a command: a failure of either, the edits' first. */
function worse(first: ExitCode, second: ExitCode): ExitCode {
  return first !== ExitCode.ok ? first : second;
}

/**
 * For each target locale this working copy synced (.tolk/state.json), the values of its files
 * that differ from what was last synced and from the server's: uploaded over the server's
 * translations, as made from the source version the file was synced to, with no provenance
 * claim, so that the server records them as a person's and keeps every other key's provenance.
 * Without a record of the last sync nothing is uploaded: a difference may be the server's newer
 * value (pull names such keys). A key of the files that is not the locale's (the source lacks it:
 * a translator's own) is no edit: the server would ignore it, and the sync state never holds it,
 * so that `pull` keeps it. Uploaded only over the translations they were merged with
 * (uploadMerged): when another upload replaced them meanwhile, the edits are merged again.
 */
async function pushTargetEdits(options: {
  io: Io;
  api: TolkApi;
  projectId: string;
  dir: string;
  targetLocales: readonly string[];
  parts: readonly SourcePart[];
  i18nextPlurals: boolean;
  dryRun: boolean;
  problems: FileProblems;
  /** The working copy's sync state (.tolk/state.json in `dir`), as loaded. */
  state: SyncState;
}): Promise<{ results: HumanEdits[]; exitCode: ExitCode }> {
  const { io, api, projectId, parts, state } = options;
  const results: HumanEdits[] = [];
  let exitCode: ExitCode = ExitCode.ok;
  for (const locale of options.targetLocales) {
    const synced = state.locales[locale];
    if (synced === undefined) continue;
    const local = await readLocalValues(parts, locale, io.cwd);
    options.problems.addLocal(local);
    if (!local) continue;
    const keys = localeKeys(parts, locale, options.i18nextPlurals);
    const result: HumanEdits = {
      locale,
      keys: 0,
      sourceVersion: state.versions[locale] ?? 0,
      uploaded: false,
    };
    let edited: [string, string][] = [];
    try {
      const uploaded = await uploadMerged({
        api,
        projectId,
        locale,
        merge: async (translations) => {
          const server = valuesOf(parseLocaleDocument(JSON.parse(translations.content), locale, io.cwd));
          edited = [...local.values].filter(
            ([key, mine]) => keys.has(key) && isUnsyncedLocal(mine, server.get(key), synced.get(key)),
          );
          // Merged again, the server may already have every one of them.
          if (edited.length === 0) {
            if (results.includes(result)) results.splice(results.indexOf(result), 1);
            return undefined;
          }
          result.keys = edited.length;
          // States written before the version was kept: the server's translations are what was synced.
          result.sourceVersion ||= translations.translatedFrom;
          if (!results.includes(result)) results.push(result);
          if (translations.translatedFrom > result.sourceVersion) {
            // The server's would have to be uploaded as made from an older source: never.
            throw new CliError(
              'CONFLICT',
              `The server has translations of source version ${translations.translatedFrom}, newer than ` +
                `those your file was synced with (${result.sourceVersion}): \`tolk pull\` (it keeps your edits) and push again`,
              ExitCode.usage,
            );
          }
          if (options.dryRun) return undefined;
          // Flattened keys name the same keys as the file's nesting does.
          const document = recordOf([...server, ...edited]);
          return { document, sourceVersion: result.sourceVersion, ownKeys: edited.length };
        },
      });
      if (!uploaded) continue;
      for (const [key, mine] of edited) synced.set(key, hashValue(mine));
      state.versions[locale] = result.sourceVersion;
      result.uploaded = true;
      if (uploaded.mergedAgain) result.mergedAgain = uploaded.mergedAgain;
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      result.error = { code: error.code, message: error.message };
      if (exitCode === ExitCode.ok) exitCode = error.exitCode;
      if (!results.includes(result)) results.push(result);
    }
  }
  if (results.some((result) => result.uploaded)) await saveSyncState(options.dir, state);
  return { results, exitCode };
}

/** The keys when few, the counts when many. */
export function describeDiff(diff: DiffResponse): string[] {
  const groups = [
    ['+', 'added', diff.added],
    ['~', 'modified', diff.modified],
    ['-', 'deleted', diff.deleted],
  ] as const;
  const total = diff.added.length + diff.modified.length + diff.deleted.length;
  if (total <= LISTED_KEYS) {
    return groups.flatMap(([sign, , keys]) => keys.map((key) => `  ${sign} ${key}`));
  }
  return groups
    .filter(([, , keys]) => keys.length > 0)
    .map(([sign, label, keys]) => `  ${sign} ${keys.length} ${label}`);
}
