import { targetKeys, type TargetKeys } from '@tolk/locale-file';
import type { AiProvider } from '@tolk/contracts';
import {
  ProviderError,
  createModel,
  providerInfo,
  TranslationRejectedError,
  translateBatch,
  translateBatchForLocales,
  type KeyProblem,
  type MemoryExample,
  type TranslateBatchResult,
} from '../ai/index.js';
import { tolkApi, type TolkApi } from '../api/tolk-api.js';
import { projectContext } from '../context.js';
import { CliError, ExitCode } from '../errors.js';
import { describeSource, keysOfParts, readLocalValues, type LocalFiles } from '../files/file-sets.js';
import { parseLocaleDocument, shown } from '../files/locale-files.js';
import { isUnsyncedLocal, saveSyncState, type SyncState } from '../files/sync-state.js';
import type { Io } from '../io.js';
import { contextNotes, planBatches, shareBatches } from '../translate/batches.js';
import { translateContext } from '../translate/context.js';
import type { FixLevel } from '../translate/fix.js';
import { glossaryMiss } from '../translate/glossary.js';
import { keysWithLocalValues, unitsForModel } from '../translate/key-rules.js';
import { fillFromMemory, memoryExamples } from '../translate/memory.js';
import { valuesOf } from '../translate/merge.js';
import type { LocaleWork } from '../translate/plan.js';
import { nothingToPlan, planLocale } from '../translate/plan-locale.js';
import { resolveProviderKey } from '../translate/provider-key.js';
import { createProgress } from '../translate/progress.js';
import { nothingToTranslate, summarize } from '../translate/summary.js';
import { shareIdenticalTexts, translationUnits, type TranslationUnit } from '../translate/units.js';
import { uploadLocale } from '../translate/upload-locale.js';

export type TranslateOptions = {
  locale: string[];
  provider?: AiProvider;
  model?: string;
  baseUrl?: string;
  /** Translate again every key not a person's (missing, outdated, the model's). */
  force: boolean;
  /** Translation memory: identical texts filled without the model, near matches as examples (default on). */
  memory?: boolean;
  /** With force: a person's translations too. */
  overwriteHuman?: boolean;
  /**
   * `--fix`: the keys whose translation has errors (`warnings`: or warnings) go to the model with
   * their text as the reference (DESIGN §15). Without it, a person's translation is never sent for
   * what it says.
   */
  fix?: FixLevel;
  concurrency: number;
  json: boolean;
};

/**
 * For each behind locale: its missing and outdated keys (all keys with --force) in batches to the
 * model, every answer checked before use; then the local target file merged and written, and
 * uploaded with the source version the translations were made from.
 */
export async function translate(io: Io, options: TranslateOptions) {
  const started = Date.now();
  const { out, project, client, credential, apiUrl } = await projectContext(io, options);
  const api = tolkApi(client);
  const context = await translateContext({
    io,
    out,
    api,
    project,
    locale: options.locale,
    memory: options.memory,
  });
  const { problems, version, parts, source, syncState, rules, glossary, useMemory, valueOf } = context;
  const { projectId, sourceLocale, settings } = context;
  let memorySavedChars = 0;
  const work: LocaleWork[] = [];
  for (const state of context.locales) {
    const code = state.locale;
    const target = targetKeys(source, code, { i18nextPlurals: context.i18nextPlurals });
    const local = await readLocalValues(parts, code, io.cwd);
    problems.addLocal(local);
    const unread = keysOfParts(target.keys, [
      ...(local?.failed.keys() ?? []),
      ...context.sourceFiles.failed.map(({ file }) => ({ file })),
    ]);
    // Every file of the locale unread: there is nothing it can be told or given.
    if (unread.size > 0 && unread.size === target.keys.length) continue;
    const upToDate = !options.force && state.status === 'up_to_date' && state.sourceVersion === version;
    // --fix plans an up-to-date locale too: its translations may have findings to fix.
    let plan =
      upToDate && !options.fix
        ? undefined
        : await planLocale({
            api,
            projectId,
            locale: code,
            version,
            source,
            target,
            local,
            unread,
            syncState,
            cwd: io.cwd,
            force: options.force,
            overwriteHuman: options.overwriteHuman ?? false,
            fix: options.fix && { level: options.fix, sourceLocale, rules, glossary },
          });
    if (!plan || (upToDate && plan.wanted.size === 0)) {
      plan = nothingToPlan();
      // Nothing to translate; uploaded only to bring local work (hand edits never uploaded) to the server.
      const edited = keysWithLocalValues(
        await localWork(api, projectId, code, local, target, syncState, io.cwd),
        rules,
      );
      if (edited.length === 0) continue;
      out.note(
        `${code}: uploading your local value${edited.length === 1 ? '' : 's'} of ${edited.slice(0, 20).join(', ')}` +
          `${edited.length > 20 ? ', ...' : ''}`,
      );
    }
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
            api,
            projectId,
            code,
            [...fillable],
            valueOf,
            (text, translation) =>
              // A stored translation made before a glossary term was set goes to the model instead.
              glossaryMiss(glossary, text, translation, code) === undefined,
          ).catch(memoryUnavailable(out, code))
        : undefined;
    if (memory) {
      units = units.filter((unit) => !unit.keys.every((key) => memory.filled.has(key)));
      memorySavedChars += memory.savedChars;
    }
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
    const kept = new Set([...plan.keptHuman, ...keepHuman]);
    // Identical texts are asked once, on the same terms as memory fills them (not with --no-memory).
    if (useMemory) units = shareIdenticalTexts(units, valueOf, (unit) => fillable.has(unit));
    const file =
      parts.length === 1 ? shown(parts[0]!.file.pathOf(code), io.cwd) : describeSource(parts, code, io.cwd);
    work.push({
      locale: code,
      target,
      keys,
      batches: planBatches(units, valueOf),
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
    });
  }
  if (work.length === 0) return nothingToTranslate({ out, problems, version, fix: options.fix, started });

  const needsModel = work.some((item) => item.keys.length > 0);
  let provider: AiProvider | undefined;
  let modelId: string | undefined;
  let model: ReturnType<typeof createModel>['model'] | undefined;
  if (needsModel) {
    provider = options.provider ?? (settings.provider as AiProvider | null) ?? 'openai';
    const info = providerInfo(provider);
    const settingsModel =
      provider === (settings.provider ?? 'openai') ? (settings.model ?? undefined) : undefined;
    // A custom OpenAI-compatible endpoint gets only a key the user put in the environment for it.
    const compatibleEndpoint = provider === 'openai' && options.baseUrl !== undefined;
    const apiKey = compatibleEndpoint
      ? io.env[info.envVar]?.trim() || undefined
      : await resolveProviderKey({ io, out, api, apiUrl, credential, provider, envVar: info.envVar });
    try {
      ({ model, modelId } = createModel({
        provider,
        model: options.model ?? settingsModel,
        apiKey,
        baseUrl: options.baseUrl,
      }));
    } catch (error) {
      if (error instanceof ProviderError)
        throw new CliError('PROVIDER_CONFIG', error.message, ExitCode.usage);
      throw error;
    }
  }
  // With --json the document alone goes to stdout: the progress goes to stderr, line by line.
  const progress = createProgress(out.json ? io.stderr : io.stdout, {
    tty: io.isTTY && !out.json,
    locales: work.map((item) => ({ locale: item.locale, total: item.keys.length })),
  });
  const usage = { inputTokens: 0, outputTokens: 0 };
  let fatal: CliError | undefined;
  const { sourceValues } = context;

  // One job a request: a locale's batch, or one batch shared by locales with the same texts.
  type Part = { item: LocaleWork; units: TranslationUnit[] };
  type Job = { parts: Part[]; index: number };
  const jobs: Job[] = shareBatches(
    work.map((item) => item.batches),
    valueOf,
  ).flatMap((indexes) => {
    const items = indexes.map((index) => work[index]!);
    if (items.length > 1)
      return [{ parts: items.map((item) => ({ item, units: item.batches[0]! })), index: 0 }];
    return items[0]!.batches.map((units, index) => ({ parts: [{ item: items[0]!, units }], index }));
  });
  for (const item of work) item.remaining = item.batches.length;

  const finish = (item: LocaleWork) =>
    uploadLocale(context, {
      item,
      progress,
      model: provider && modelId ? `${provider}:${modelId}` : undefined,
    });

  // Locales with nothing left to translate (only deletions or annotations changed) are uploaded
  // at once, which brings them up to date with the current source version.
  for (const item of work) if (item.batches.length === 0) await finish(item);

  const examplesOf = ({ item, units }: Part, index: number): Promise<MemoryExample[]> =>
    useMemory
      ? memoryExamples(api, projectId, item.locale, units, valueOf).then(
          ({ examples, timedOut }) => {
            if (timedOut) {
              item.outcome.memoryExamplesSkipped.push(index + 1);
              progress.examplesSkipped(item.locale, index + 1, item.batches.length);
            }
            return examples;
          },
          (error: unknown) => {
            // Examples are hints: an API that cannot answer costs the batch none; a bug still shows.
            if (error instanceof CliError) return [];
            throw error;
          },
        )
      : Promise.resolve([]);

  const translateJob = async (job: Job) => {
    const sources = job.parts[0]!.units.flatMap((unit) => unit.sources);
    const common = {
      model: model!,
      sourceLocale,
      instructions: settings.instructions,
      strings: Object.fromEntries(sources.map((key) => [key, sourceValues.get(key)!])),
      context: contextNotes(source, sources),
      glossary,
      maxAttempts: 3,
      signal: io.signal,
    };
    const target = ({ item, units }: Part, examples: MemoryExample[]) => ({
      targetLocale: item.locale,
      plurals: units.flatMap((unit) => (unit.plural ? [unit.plural] : [])),
      examples,
      references: item.references,
      fixes: item.fixes,
      onAttemptFailed: ({ attempt, problems }: { attempt: number; problems: KeyProblem[] }) =>
        progress.retrying(item.locale, `attempt ${attempt} rejected for ${describeProblems(problems)}`),
    });
    let outcomes: unknown[];
    try {
      if (fatal) throw fatal;
      const examples = await Promise.all(job.parts.map((part) => examplesOf(part, job.index)));
      if (job.parts.length === 1) {
        // A rejection is the part's outcome, taken below.
        outcomes = [await translateBatch({ ...common, ...target(job.parts[0]!, examples[0]!) })];
      } else {
        const shared = await translateBatchForLocales({
          ...common,
          targets: job.parts.map((part, i) => target(part, examples[i]!)),
        });
        usage.inputTokens += shared.usage.inputTokens;
        usage.outputTokens += shared.usage.outputTokens;
        outcomes = job.parts.map((part) => shared.outcomes.get(part.item.locale));
      }
    } catch (error) {
      if (io.signal.aborted) throw error;
      outcomes = job.parts.map(() => error);
    }
    for (const [i, part] of job.parts.entries()) {
      settle(part, job.index, outcomes[i]);
      part.item.remaining--;
      if (part.item.remaining === 0) await finish(part.item);
    }
  };

  /** A part's keys and their copies translated, or failed with the reason said. */
  const settle = ({ item, units }: Part, index: number, outcome: unknown) => {
    const keys = units.flatMap((unit) => [...unit.keys, ...(unit.copies ?? [])]);
    const takeCopies = () => {
      for (const unit of units) {
        const value = item.translated.get(unit.keys[0]!);
        if (value !== undefined) for (const copy of unit.copies ?? []) item.translated.set(copy, value);
      }
    };
    if (!(outcome instanceof Error)) {
      const result = outcome as TranslateBatchResult;
      usage.inputTokens += result.usage.inputTokens;
      usage.outputTokens += result.usage.outputTokens;
      for (const [key, value] of Object.entries(result.translations))
        if (!item.keepHuman.has(key)) item.translated.set(key, value);
      takeCopies();
      item.outcome.glossaryMisses.push(
        ...result.glossaryMisses.map(({ key, message }) => ({ key, message })),
      );
      progress.batchDone(item.locale, keys.length, index + 1, item.batches.length);
      return;
    }
    const error = outcome;
    let reason: string;
    if (error instanceof TranslationRejectedError) {
      usage.inputTokens += error.usage.inputTokens;
      usage.outputTokens += error.usage.outputTokens;
      for (const [key, value] of Object.entries(error.translations))
        if (!item.keepHuman.has(key)) item.translated.set(key, value);
      takeCopies();
      const bad = error.problems.filter((problem) => !['unexpected-key', 'glossary'].includes(problem.kind));
      for (const { key, message, kind } of error.problems)
        if (kind === 'glossary') item.outcome.glossaryMisses.push({ key, message });
      item.outcome.problems.push(...bad.map((problem) => `${problem.key}: ${problem.message}`));
      reason = `rejected after ${error.attempts} attempts (${describeProblems(bad)})`;
    } else if (error instanceof ProviderError) {
      // The provider itself failed after its own retries: the next batch would fail the same way.
      fatal ??= new CliError(
        `PROVIDER_${error.code.toUpperCase()}`,
        error.message,
        error.code === 'unauthorized' ? ExitCode.auth : ExitCode.failure,
      );
      reason = error.message;
    } else if (error instanceof CliError) {
      reason = error.message;
    } else {
      throw error;
    }
    const failed = keys.filter((key) => !item.translated.has(key) && !item.keepHuman.has(key));
    for (const key of failed) item.failed.add(key);
    progress.batchFailed(item.locale, failed.length, reason);
    const good = keys.length - failed.length;
    if (good > 0) progress.batchDone(item.locale, good, index + 1, item.batches.length);
  };

  let next = 0;
  const runners = Array.from({ length: Math.min(options.concurrency, jobs.length) }, async () => {
    while (next < jobs.length) await translateJob(jobs[next++]!);
  });
  await Promise.all(runners);
  progress.done();
  await saveSyncState(project.dir, context.syncState);

  return summarize({
    out,
    work,
    problems,
    provider,
    modelId,
    usage,
    fatal,
    fix: options.fix,
    started,
    memorySavedChars,
  });
}

function describeProblems(problems: readonly KeyProblem[]): string {
  const keys = [...new Set(problems.map((problem) => problem.key))];
  const first = problems[0];
  return `${keys.length} key${keys.length === 1 ? '' : 's'}${first ? `, e.g. ${first.key}: ${first.message}` : ''}`;
}

/** The target keys whose local value differs from the server's and was never uploaded. */
async function localWork(
  api: TolkApi,
  projectId: string,
  locale: string,
  local: LocalFiles | undefined,
  target: TargetKeys,
  syncState: SyncState,
  cwd: string,
): Promise<string[]> {
  // Without a record of the last sync (a checkout that never pulled with this CLI), a difference
  // may as well be the server's newer value: nothing is uploaded (pull names such keys).
  const synced = syncState.locales[locale];
  if (synced === undefined) return [];
  if (!local) return [];
  const translations = await api.getTranslations(projectId, locale);
  const server = valuesOf(parseLocaleDocument(JSON.parse(translations.content), locale, cwd));
  return target.keys.filter((key) =>
    isUnsyncedLocal(local.values.get(key), server.get(key), synced.get(key)),
  );
}

/** A memory lookup that failed costs the run nothing but the model's work: said, then carried on. */
function memoryUnavailable(out: { note(text: string): void }, locale: string) {
  return (error: unknown) => {
    if (!(error instanceof CliError)) throw error;
    out.note(`${locale}: translation memory unavailable (${error.code}: ${error.message}); asking the model`);
    return undefined;
  };
}
