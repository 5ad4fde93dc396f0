/**
 * The work of a `tolk translate` run (DESIGN §13): for each chosen locale behind its source (each
 * with --force, each with findings to fix with --fix), the keys asked of the model in batches,
 * those translation memory fills without it, and the outcome the run fills in as it goes.
 */
import type { LocaleResponse } from '@tolk/contracts';
import { targetKeys, type TargetKeys } from '@tolk/locale-file';
import { CliError } from '../errors.js';
import { describeSource, keysOfParts, readLocalValues, type LocalFiles } from '../files/file-sets.js';
import { parseLocaleDocument, shown } from '../files/locale-files.js';
import { isUnsyncedLocal } from '../files/sync-state.js';
import type { Output } from '../output.js';
import { contextNotes, planBatches } from './batches.js';
import type { TranslateContext } from './context.js';
import type { FixLevel } from './fix.js';
import { glossaryMiss } from './glossary.js';
import { keysWithLocalValues, unitsForModel } from './key-rules.js';
import { fillFromMemory } from './memory.js';
import { valuesOf } from './merge.js';
import { nothingToPlan, planLocale, type LocalePlan } from './plan-locale.js';
import { shareIdenticalTexts, translationUnits, type TranslationUnit } from './units.js';

/** What happened to one locale, as the summary and --json report it. */
export type LocaleOutcome = {
  locale: string;
  file: string;
  /** Keys asked of the model: the target locale's (a plural group's forms in that locale). */
  requested: number;
  translated: number;
  /** Keys filled from translation memory (among `translated`), without the model. */
  fromMemory: number;
  /**
   * The batches (numbered as the progress shows them) sent without examples from translation
   * memory because the server gave its similarity search up: it took too long.
   */
  memoryExamplesSkipped: number[];
  failedKeys: string[];
  problems: string[];
  /** Keys kept without the glossary's rendering of a term after every attempt, and why (DESIGN §13). */
  glossaryMisses: { key: string; message: string }[];
  uploaded: boolean;
  /** Keys whose local value, never uploaded, a new translation replaced (it was for an older source). */
  replacedLocal: string[];
  /**
   * Keys a person translated on the server while this run was translating them: their translation
   * is kept, the model's is not uploaded.
   */
  keptHumanMeanwhile: string[];
  /**
   * The server's translations changed between the download the upload was merged with and the
   * upload (412): this many of the run's keys were merged with the newer ones and uploaded.
   */
  mergedAgain: { keys: number } | null;
  /** Keys only people translate (key rules) still without a translation. */
  leftForPeople: string[];
  /** Keys a person translated that would have been asked of the model and were not (DESIGN §13). */
  keptHuman: number;
  /** Keys a person translated whose source changed: asked with that translation as the reference. */
  humanReferences: number;
  /** `--fix`: the keys whose translation has findings to fix, asked with it as the reference. */
  toFix: number;
  /** `--fix`: of those, the keys whose fixed translation was stored (it passed every rule). */
  fixed: number;
  status: LocaleResponse['status'] | null;
  error: { code: string; message: string } | null;
};

export type LocaleWork = {
  locale: string;
  /** The locale's keys (DESIGN §11: each plural group as the locale's forms). */
  target: TargetKeys;
  /** The target keys asked for. */
  keys: string[];
  batches: TranslationUnit[][];
  /** Target key → a person's translation of its earlier source text, sent as the reference. */
  references: Map<string, string>;
  /** `--fix`: target key → what was found wrong in its reference. */
  fixes: Map<string, string[]>;
  /** Keys asked only as part of their plural group: a person's, kept whatever the model answers. */
  keepHuman: Set<string>;
  /** The server's translations when the work was planned. */
  planned: ReadonlyMap<string, string>;
  /**
   * Keys of files that could not be read (DESIGN §15): what they hold may be a person's work, so
   * they are not translated, and their files are not written.
   */
  unread: ReadonlySet<string>;
  remaining: number;
  translated: Map<string, string>;
  /** The keys of `translated` that came from translation memory. */
  fromMemory: Set<string>;
  failed: Set<string>;
  outcome: LocaleOutcome;
};

export type WorkOptions = {
  /** Translate again every key not a person's (missing, outdated, the model's). */
  force: boolean;
  /** With force: a person's translations too. */
  overwriteHuman?: boolean;
  /** `--fix`: the keys whose translation has errors (`warnings`: or warnings) go to the model. */
  fix?: FixLevel;
};

/**
 * Each chosen locale's work, in their order: none for a locale with nothing to translate and no
 * local work to upload, or whose every file could not be read. With the characters of text memory
 * spared the model, for the summary's estimate of tokens saved.
 */
export async function planWork(context: TranslateContext, options: WorkOptions) {
  const work: LocaleWork[] = [];
  let memorySavedChars = 0;
  for (const state of context.locales) {
    const planned = await planLocaleWork(context, options, state);
    if (!planned) continue;
    work.push(planned.item);
    memorySavedChars += planned.memorySavedChars;
  }
  return { work, memorySavedChars };
}

async function planLocaleWork(context: TranslateContext, options: WorkOptions, state: LocaleResponse) {
  const { io, source, parts } = context;
  const code = state.locale;
  const target = targetKeys(source, code, { i18nextPlurals: context.i18nextPlurals });
  const local = await readLocalValues(parts, code, io.cwd);
  context.problems.addLocal(local);
  const unread = keysOfParts(target.keys, [
    ...(local?.failed.keys() ?? []),
    ...context.sourceFiles.failed.map(({ file }) => ({ file })),
  ]);
  // Every file of the locale unread: there is nothing it can be told or given.
  if (unread.size > 0 && unread.size === target.keys.length) return undefined;
  const plan = await whatToAsk(context, options, { state, target, local, unread });
  if (!plan) return undefined;
  const { units, keys, keepHuman, memory } = await unitsToAsk(context, options, code, target, plan);
  const kept = new Set([...plan.keptHuman, ...keepHuman]);
  const file =
    parts.length === 1 ? shown(parts[0]!.file.pathOf(code), io.cwd) : describeSource(parts, code, io.cwd);
  const item: LocaleWork = {
    locale: code,
    target,
    keys,
    batches: planBatches(units, context.valueOf),
    references: plan.references,
    fixes: plan.fixes,
    keepHuman,
    planned: plan.server,
    unread,
    remaining: 0,
    translated: new Map(memory?.filled),
    fromMemory: new Set(memory?.filled.keys()),
    failed: new Set(),
    outcome: {
      locale: code,
      file,
      requested: keys.length,
      translated: 0,
      fromMemory: memory?.filled.size ?? 0,
      memoryExamplesSkipped: [],
      failedKeys: [],
      problems: [],
      glossaryMisses: [],
      uploaded: false,
      replacedLocal: [],
      keptHumanMeanwhile: [],
      mergedAgain: null,
      leftForPeople: [],
      keptHuman: kept.size,
      humanReferences: [...plan.references.keys()].filter((key) => !plan.fixes.has(key)).length,
      toFix: plan.fixes.size,
      fixed: 0,
      status: null,
      error: null,
    },
  };
  return { item, memorySavedChars: memory?.savedChars ?? 0 };
}

/**
 * The locale's plan, or nothing to plan when it is up to date (and --fix found nothing): then its
 * local work (hand edits never uploaded) is uploaded alone, or the locale has no work at all.
 */
async function whatToAsk(
  context: TranslateContext,
  options: WorkOptions,
  locale: { state: LocaleResponse; target: TargetKeys; local: LocalFiles | undefined; unread: Set<string> },
): Promise<LocalePlan | undefined> {
  const { io, api, projectId, version } = context;
  const { state, target, local, unread } = locale;
  const code = state.locale;
  const upToDate = !options.force && state.status === 'up_to_date' && state.sourceVersion === version;
  // --fix plans an up-to-date locale too: its translations may have findings to fix.
  const plan =
    upToDate && !options.fix
      ? undefined
      : await planLocale({
          api,
          projectId,
          locale: code,
          version,
          source: context.source,
          target,
          local,
          unread,
          syncState: context.syncState,
          cwd: io.cwd,
          force: options.force,
          overwriteHuman: options.overwriteHuman ?? false,
          fix: options.fix && {
            level: options.fix,
            sourceLocale: context.sourceLocale,
            rules: context.rules,
            glossary: context.glossary,
          },
        });
  if (plan && !(upToDate && plan.wanted.size === 0)) return plan;
  // Nothing to translate; uploaded only to bring local work (hand edits never uploaded) to the server.
  const edited = keysWithLocalValues(await localWork(context, code, local, target), context.rules);
  if (edited.length === 0) return undefined;
  context.out.note(
    `${code}: uploading your local value${edited.length === 1 ? '' : 's'} of ${edited.slice(0, 20).join(', ')}` +
      `${edited.length > 20 ? ', ...' : ''}`,
  );
  return nothingToPlan();
}

/**
 * The units asked of the model: the plan's wanted keys less those only people translate and those
 * translation memory fills, identical texts asked once; and the keys a person translated that are
 * asked only as part of their plural group, kept whatever the model answers.
 */
async function unitsToAsk(
  context: TranslateContext,
  options: WorkOptions,
  locale: string,
  target: TargetKeys,
  plan: LocalePlan,
) {
  const { source, rules, valueOf, useMemory, glossary } = context;
  // Keys only people translate, or never translated, go neither to the model nor to memory.
  let units = unitsForModel(translationUnits(source, target, plan.wanted), rules);
  // --force asks the model again on purpose: memory would answer with what is stored. A key a
  // person translated goes to the model with their translation as the reference instead, and
  // one with a context note too: memory matches texts, not what they are for.
  const fillable = new Set(
    units.filter(
      (unit) =>
        !unit.keys.some((key) => plan.humanValues.has(key) || plan.references.has(key)) &&
        Object.keys(contextNotes(source, unit.sources)).length === 0,
    ),
  );
  const memory =
    useMemory && !options.force && fillable.size > 0
      ? await fillFromMemory(
          context.api,
          context.projectId,
          locale,
          [...fillable],
          valueOf,
          (text, translation) =>
            // A stored translation made before a glossary term was set goes to the model instead.
            glossaryMiss(glossary, text, translation, locale) === undefined,
        ).catch(memoryUnavailable(context.out, locale))
      : undefined;
  if (memory) units = units.filter((unit) => !unit.keys.every((key) => memory.filled.has(key)));
  const keys = units.flatMap((unit) => unit.keys);
  // A plural group is asked whole: its forms a person translated go as the reference, and
  // those whose source did not change (not wanted) keep the person's text whatever the answer.
  const keepHuman = new Set<string>();
  if (!options.overwriteHuman) {
    for (const key of keys) {
      const human = plan.humanValues.get(key);
      if (human === undefined) continue;
      if (!plan.references.has(key)) plan.references.set(key, human);
      if (!plan.wanted.has(key)) keepHuman.add(key);
    }
  }
  // Identical texts are asked once, on the same terms as memory fills them (not with --no-memory).
  if (useMemory) units = shareIdenticalTexts(units, valueOf, (unit) => fillable.has(unit));
  return { units, keys, keepHuman, memory };
}

/** The target keys whose local value differs from the server's and was never uploaded. */
async function localWork(
  context: TranslateContext,
  locale: string,
  local: LocalFiles | undefined,
  target: TargetKeys,
): Promise<string[]> {
  // Without a record of the last sync (a checkout that never pulled with this CLI), a difference
  // may as well be the server's newer value: nothing is uploaded (pull names such keys).
  const synced = context.syncState.locales[locale];
  if (synced === undefined) return [];
  if (!local) return [];
  const translations = await context.api.getTranslations(context.projectId, locale);
  const server = valuesOf(parseLocaleDocument(JSON.parse(translations.content), locale, context.io.cwd));
  return target.keys.filter((key) =>
    isUnsyncedLocal(local.values.get(key), server.get(key), synced.get(key)),
  );
}

/** A memory lookup that failed costs the run nothing but the model's work: said, then carried on. */
function memoryUnavailable(out: Pick<Output, 'note'>, locale: string) {
  return (error: unknown) => {
    if (!(error instanceof CliError)) throw error;
    out.note(`${locale}: translation memory unavailable (${error.code}: ${error.message}); asking the model`);
    return undefined;
  };
}
