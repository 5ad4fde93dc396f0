/**
 * The requests of a `tolk translate` run: one job a request (a locale's batch, or one batch shared
 * by locales with the same texts), `--concurrency` of them at once, each answer checked and kept
 * per key; a locale is finished (merged, written, uploaded) as soon as its last batch is settled.
 */
import pLimit from 'p-limit';
import {
  ProviderError,
  TranslationRejectedError,
  translateBatch,
  translateBatchForLocales,
  type KeyProblem,
  type MemoryExample,
  type TokenUsage,
  type TranslateBatchResult,
} from '../ai/index.js';
import { CliError, ExitCode } from '../errors.js';
import { contextNotes, shareBatches } from './batches.js';
import type { TranslateContext } from './context.js';
import { memoryExamples } from './memory.js';
import type { ChosenModel } from './model.js';
import type { LocaleWork } from './plan.js';
import type { Progress } from './progress.js';
import type { TranslationUnit } from './units.js';

type Part = { item: LocaleWork; units: TranslationUnit[] };
type Job = { parts: Part[]; index: number };

/** What the jobs tell the run: the model's tokens, and a provider's failure that ends the run. */
export type JobsTally = { usage: TokenUsage; fatal: CliError | undefined };

/**
 * Every batch of `work` asked of the model, `concurrency` requests at once, and each locale
 * `finish`ed when its last batch is settled (at once when it has none: only deletions or
 * annotations changed, or local work to upload). A provider that fails after its own retries
 * fails every batch after it the same way: they are not sent.
 */
export async function translateWork(options: {
  context: TranslateContext;
  work: LocaleWork[];
  model: ChosenModel['model'] | undefined;
  progress: Progress;
  concurrency: number;
  finish: (item: LocaleWork) => Promise<void>;
}): Promise<JobsTally> {
  const { work, progress, finish } = options;
  const tally: JobsTally = { usage: { inputTokens: 0, outputTokens: 0 }, fatal: undefined };
  const jobs: Job[] = shareBatches(
    work.map((item) => item.batches),
    options.context.valueOf,
  ).flatMap((indexes) => {
    const items = indexes.map((index) => work[index]!);
    if (items.length > 1)
      return [{ parts: items.map((item) => ({ item, units: item.batches[0]! })), index: 0 }];
    return items[0]!.batches.map((units, index) => ({ parts: [{ item: items[0]!, units }], index }));
  });
  for (const item of work) item.remaining = item.batches.length;

  // Locales with nothing left to translate (only deletions or annotations changed) are uploaded
  // at once, which brings them up to date with the current source version.
  for (const item of work) if (item.batches.length === 0) await finish(item);

  await pLimit(options.concurrency).map(jobs, async (job) => {
    const outcomes = await askModel({ context: options.context, model: options.model, progress, tally, job });
    for (const [i, part] of job.parts.entries()) {
      settle(tally, progress, part, job.index, outcomes[i]);
      part.item.remaining--;
      if (part.item.remaining === 0) await finish(part.item);
    }
  });
  return tally;
}

/** The model's answer for each part of a job: its result, or the error that is its outcome. */
async function askModel(options: {
  context: TranslateContext;
  model: ChosenModel['model'] | undefined;
  progress: Progress;
  tally: JobsTally;
  job: Job;
}): Promise<unknown[]> {
  const { context, progress, tally, job } = options;
  const sources = job.parts[0]!.units.flatMap((unit) => unit.sources);
  const common = {
    model: options.model!,
    sourceLocale: context.sourceLocale,
    instructions: context.settings.instructions,
    strings: Object.fromEntries(sources.map((key) => [key, context.sourceValues.get(key)!])),
    context: contextNotes(context.source, sources),
    glossary: context.glossary,
    maxAttempts: 3,
    signal: context.io.signal,
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
  try {
    if (tally.fatal) throw tally.fatal;
    const examples = await Promise.all(
      job.parts.map((part) => examplesOf(context, progress, part, job.index)),
    );
    // A rejection is the part's outcome, taken by settle.
    if (job.parts.length === 1)
      return [await translateBatch({ ...common, ...target(job.parts[0]!, examples[0]!) })];
    const shared = await translateBatchForLocales({
      ...common,
      targets: job.parts.map((part, i) => target(part, examples[i]!)),
    });
    addUsage(tally.usage, shared.usage);
    return job.parts.map((part) => shared.outcomes.get(part.item.locale));
  } catch (error) {
    if (context.io.signal.aborted) throw error;
    return job.parts.map(() => error);
  }
}

/** A batch's examples from translation memory (none with --no-memory). */
function examplesOf(
  context: TranslateContext,
  progress: Progress,
  { item, units }: Part,
  index: number,
): Promise<MemoryExample[]> {
  if (!context.useMemory) return Promise.resolve([]);
  return memoryExamples(context.api, context.projectId, item.locale, units, context.valueOf).then(
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
  );
}

/** A part's keys and their copies translated, or failed with the reason said. */
function settle(
  tally: JobsTally,
  progress: Progress,
  { item, units }: Part,
  index: number,
  outcome: unknown,
) {
  const keys = units.flatMap((unit) => [...unit.keys, ...(unit.copies ?? [])]);
  const take = (translations: Record<string, string>) => {
    for (const [key, value] of Object.entries(translations))
      if (!item.keepHuman.has(key)) item.translated.set(key, value);
    for (const unit of units) {
      const value = item.translated.get(unit.keys[0]!);
      if (value !== undefined) for (const copy of unit.copies ?? []) item.translated.set(copy, value);
    }
  };
  if (!(outcome instanceof Error)) {
    const result = outcome as TranslateBatchResult;
    addUsage(tally.usage, result.usage);
    take(result.translations);
    item.outcome.glossaryMisses.push(...result.glossaryMisses.map(({ key, message }) => ({ key, message })));
    progress.batchDone(item.locale, keys.length, index + 1, item.batches.length);
    return;
  }
  const error = outcome;
  let reason: string;
  if (error instanceof TranslationRejectedError) {
    addUsage(tally.usage, error.usage);
    take(error.translations);
    const bad = error.problems.filter((problem) => !['unexpected-key', 'glossary'].includes(problem.kind));
    for (const { key, message, kind } of error.problems)
      if (kind === 'glossary') item.outcome.glossaryMisses.push({ key, message });
    item.outcome.problems.push(...bad.map((problem) => `${problem.key}: ${problem.message}`));
    reason = `rejected after ${error.attempts} attempts (${describeProblems(bad)})`;
  } else if (error instanceof ProviderError) {
    // The provider itself failed after its own retries: the next batch would fail the same way.
    tally.fatal ??= new CliError(
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
}

function addUsage(usage: TokenUsage, more: TokenUsage) {
  usage.inputTokens += more.inputTokens;
  usage.outputTokens += more.outputTokens;
}

function describeProblems(problems: readonly KeyProblem[]): string {
  const keys = [...new Set(problems.map((problem) => problem.key))];
  const first = problems[0];
  return `${keys.length} key${keys.length === 1 ? '' : 's'}${first ? `, e.g. ${first.key}: ${first.message}` : ''}`;
}
