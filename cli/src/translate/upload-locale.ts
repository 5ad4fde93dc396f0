/**
 * A locale's work finished: the run's translations merged with the server's and the local files,
 * the target files written, and the whole uploaded with the source version they were made from.
 */
import type { ProvenanceClaim } from '@tolk/contracts';
import { CliError } from '../errors.js';
import { localeKeys, readLocalValues, writeTargetFile, type LocalFiles } from '../files/file-sets.js';
import { parseLocaleDocument } from '../files/locale-files.js';
import { isUnsyncedLocal, keepRecords, syncedHashes } from '../files/sync-state.js';
import type { TranslateContext } from './context.js';
import { leftForPeople } from './key-rules.js';
import { mergeTranslations, valuesOf } from './merge.js';
import type { LocaleWork } from './plan.js';
import type { Progress } from './progress.js';
import { uploadMerged, type ServerTranslations } from './upload-merged.js';

/**
 * Merges, writes and uploads one locale (`model`, `<provider>:<model>`, claims the keys the model
 * translated); its sync record follows. An upload the server refuses is the locale's error, in
 * its outcome and its progress line.
 */
export async function uploadLocale(
  context: TranslateContext,
  options: { item: LocaleWork; progress: Progress; model: string | undefined },
) {
  const { io, parts, version, syncState } = context;
  const { item, progress } = options;
  const { outcome } = item;
  progress.state(item.locale, 'uploading');
  try {
    // Read once, before this run writes them: a merge made again writes the files again from
    // what they held, and never takes its own first merge for local work.
    const localFiles = await readLocalValues(parts, item.locale, io.cwd);
    const synced = syncState.locales[item.locale] ?? new Map<string, string>();
    let values = new Map<string, string>();
    const uploaded = await uploadMerged({
      api: context.api,
      projectId: context.projectId,
      locale: item.locale,
      merge: async (serverTranslations) => {
        const merged = await mergeLocale(context, {
          item,
          model: options.model,
          serverTranslations,
          localFiles,
          synced,
        });
        values = merged.values;
        return merged.upload;
      },
    });
    // A merge always has something to upload: the locale is uploaded to catch up with the source.
    const { answer, mergedAgain } = uploaded!;
    outcome.mergedAgain = mergedAgain ?? null;
    syncState.versions[item.locale] = version;
    // Of the locale's keys alone, as pull records them: a key the source lacks is never synced.
    const hashes = syncedHashes(
      values,
      (await readLocalValues(parts, item.locale, io.cwd))?.values,
      localeKeys(parts, item.locale, context.i18nextPlurals),
    );
    // What a file not read holds is unknown: the sync record of its keys stays as it was.
    keepRecords(hashes, synced, item.unread);
    syncState.locales[item.locale] = hashes;
    outcome.uploaded = true;
    outcome.status = answer.status;
    progress.state(
      item.locale,
      answer.status === 'up_to_date'
        ? 'uploaded, up to date'
        : `uploaded, ${answer.missingCount + answer.outdatedCount} keys still behind`,
    );
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    outcome.error = { code: error.code, message: error.message };
    progress.state(item.locale, `upload failed: ${error.code}`);
  }
}

/**
 * The run's translations of a locale merged with the server's as downloaded and the local files as
 * they were before the run, the target files written: what to upload, and the values written.
 */
async function mergeLocale(
  context: TranslateContext,
  options: {
    item: LocaleWork;
    model: string | undefined;
    serverTranslations: ServerTranslations;
    localFiles: LocalFiles | undefined;
    synced: Map<string, string>;
  },
) {
  const { io, source, parts, version } = context;
  const { item, serverTranslations, localFiles, synced } = options;
  const { outcome } = item;
  const local = localFiles?.values;
  const server = valuesOf(parseLocaleDocument(JSON.parse(serverTranslations.content), outcome.file, io.cwd));
  // A person's translation the server got after this run planned its work is kept: the
  // model is never asked for a person's translation in place of it (DESIGN §13).
  const translated = new Map(item.translated);
  outcome.keptHumanMeanwhile = [];
  for (const key of item.translated.keys()) {
    const theirs = server.get(key);
    if (
      theirs !== undefined &&
      theirs !== item.planned.get(key) &&
      serverTranslations.provenance[key]?.by === 'human'
    ) {
      translated.delete(key);
      outcome.keptHumanMeanwhile.push(key);
    }
  }
  outcome.replacedLocal = [];
  for (const [key, fresh] of translated) {
    // A value --fix was asked to fix is replaced on purpose.
    if (item.fixes.has(key)) continue;
    const mine = local?.get(key);
    if (mine !== fresh && isUnsyncedLocal(mine, server.get(key), synced.get(key)))
      outcome.replacedLocal.push(key);
  }
  const merged = mergeTranslations({
    synced,
    source,
    locale: item.locale,
    target: item.target,
    server,
    local,
    translated,
    failed: item.failed,
    // A key --fix could not fix keeps the text it had.
    keep: new Map(
      [...item.fixes.keys()]
        .filter((key) => item.failed.has(key))
        .map((key) => [key, item.references.get(key)!]),
    ),
    rules: context.rules,
  });
  outcome.translated = item.translated.size;
  outcome.failedKeys = item.target.keys.filter((key) => item.failed.has(key));
  const values = valuesOf(parseLocaleDocument(merged.document, outcome.file, io.cwd));
  outcome.fixed = [...item.fixes.keys()].filter(
    (key) => translated.has(key) && values.get(key) === translated.get(key),
  ).length;
  outcome.leftForPeople = leftForPeople(item.target, context.rules, values);
  for (const part of parts) {
    if (localFiles?.failed.has(part)) continue;
    await writeTargetFile({
      part,
      sourceLocale: context.sourceLocale,
      locale: item.locale,
      i18nextPlurals: context.i18nextPlurals,
      valueOf: (key) => values.get(key),
      existing: localFiles?.existing.get(part),
      // What was synced before this run: a key the source lacks goes only when Tolk synced it.
      synced,
      cwd: io.cwd,
    });
  }
  const written = [...translated.keys()].filter((key) => values.has(key));
  const claim = claimOf(item, options.model, written);
  return {
    upload: { document: merged.document, sourceVersion: version, claim, ownKeys: merged.ownKeys },
    values,
  };
}

/**
 * The keys the run wrote: those the model translated claimed as its (`model` is
 * `<provider>:<model>`), those from memory as memory's; the rest is a person's or kept as it was.
 */
function claimOf(
  item: LocaleWork,
  model: string | undefined,
  written: string[],
): ProvenanceClaim | undefined {
  const byModel = written.filter((key) => !item.fromMemory.has(key));
  const byMemory = written.filter((key) => item.fromMemory.has(key));
  if (!(model && byModel.length > 0) && byMemory.length === 0) return undefined;
  return {
    ...(model && byModel.length > 0 ? { ai: { model, keys: byModel } } : {}),
    ...(byMemory.length > 0 ? { memory: { keys: byMemory } } : {}),
  };
}
