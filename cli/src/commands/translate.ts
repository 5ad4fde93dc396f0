import type { AiProvider } from '@tolk/contracts';
import {
  ProviderError,
  TranslationRejectedError,
  translateBatch,
  translateBatchForLocales,
  type KeyProblem,
  type MemoryExample,
  type TranslateBatchResult,
} from '../ai/index.js';
import { tolkApi } from '../api/tolk-api.js';
import { projectContext } from '../context.js';
import { CliError, ExitCode } from '../errors.js';
import { saveSyncState } from '../files/sync-state.js';
import type { Io } from '../io.js';
import { contextNotes, shareBatches } from '../translate/batches.js';
import { translateContext } from '../translate/context.js';
import type { FixLevel } from '../translate/fix.js';
import { memoryExamples } from '../translate/memory.js';
import { chooseModel } from '../translate/model.js';
import { planWork, type LocaleWork } from '../translate/plan.js';
import { createProgress } from '../translate/progress.js';
import { nothingToTranslate, summarize } from '../translate/summary.js';
import type { TranslationUnit } from '../translate/units.js';
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
  const { problems, version } = context;
  const { work, memorySavedChars } = await planWork(context, options);
  if (work.length === 0) return nothingToTranslate({ out, problems, version, fix: options.fix, started });

  const needsModel = work.some((item) => item.keys.length > 0);
  const chosen = needsModel
    ? await chooseModel({
        io,
        out,
        api,
        apiUrl,
        credential,
        settings: context.settings,
        provider: options.provider,
        model: options.model,
        baseUrl: options.baseUrl,
      })
    : undefined;
  // With --json the document alone goes to stdout: the progress goes to stderr, line by line.
  const progress = createProgress(out.json ? io.stderr : io.stdout, {
    tty: io.isTTY && !out.json,
    locales: work.map((item) => ({ locale: item.locale, total: item.keys.length })),
  });
  const usage = { inputTokens: 0, outputTokens: 0 };
  let fatal: CliError | undefined;
  const { source, sourceValues, valueOf, glossary, sourceLocale } = context;

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
    uploadLocale(context, { item, progress, model: chosen && `${chosen.provider}:${chosen.modelId}` });

  // Locales with nothing left to translate (only deletions or annotations changed) are uploaded
  // at once, which brings them up to date with the current source version.
  for (const item of work) if (item.batches.length === 0) await finish(item);

  const examplesOf = ({ item, units }: Part, index: number): Promise<MemoryExample[]> =>
    context.useMemory
      ? memoryExamples(api, context.projectId, item.locale, units, valueOf).then(
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
      model: chosen!.model,
      sourceLocale,
      instructions: context.settings.instructions,
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
    provider: chosen?.provider,
    modelId: chosen?.modelId,
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
