/**
 * What a `tolk translate` run says when it is over: the summary line, the notes per locale, the
 * file problems, the `--json` document, and its exit code.
 */
import type { TokenUsage } from '../ai/index.js';
import { CliError, ExitCode, withUnreadFiles } from '../errors.js';
import type { FileProblems } from '../files/file-problems.js';
import type { Output } from '../output.js';
import type { FixLevel } from './fix.js';
import { reportGlossaryMisses } from './glossary.js';
import { CHARS_PER_TOKEN } from './memory.js';
import type { LocaleOutcome, LocaleWork } from './plan.js';
import { describeMergedAgain } from './upload-merged.js';

/** A run that had no locale to work on: said so (unless a file could not be read), and its exit code. */
export function nothingToTranslate(options: {
  out: Output;
  problems: FileProblems;
  version: number;
  fix: FixLevel | undefined;
  started: number;
}): ExitCode {
  const { out, problems } = options;
  if (problems.failed.length === 0) {
    const fixing = options.fix ? ` and no translation has ${findingsOf(options.fix)} to fix` : '';
    out.line(
      `Every locale is up to date with source version ${options.version}${fixing}; nothing to translate.`,
    );
  }
  problems.print(out.note);
  out.document({
    ...summaryDocument([], undefined, undefined, { inputTokens: 0, outputTokens: 0 }, options.started),
    ...problems.document(),
  });
  return problems.exitCode();
}

/**
 * The summary of a run that worked on `work`: the keys translated and the tokens they took, then
 * per locale what went otherwise than asked; the run's exit code, its fatal error said.
 */
export function summarize(options: {
  out: Output;
  work: readonly LocaleWork[];
  problems: FileProblems;
  provider: string | undefined;
  modelId: string | undefined;
  usage: TokenUsage;
  fatal: CliError | undefined;
  fix: FixLevel | undefined;
  started: number;
  memorySavedChars: number;
}): ExitCode {
  const { out, work, problems, provider, modelId, usage, started, memorySavedChars } = options;
  const outcomes = work.map((item) => item.outcome);
  const keyCount = outcomes.reduce((sum, outcome) => sum + outcome.translated, 0);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const tokens = `${usage.inputTokens} input + ${usage.outputTokens} output tokens`;
  const memoryKeys = outcomes.reduce((sum, outcome) => sum + outcome.fromMemory, 0);
  // The keys memory filled are counted in the total, but the tokens are the model's alone.
  const withModel = provider ? ` with ${provider} ${modelId}` : '';
  const via =
    memoryKeys > 0 ? `, ${keyCount - memoryKeys} of them${withModel || ' by the model'}` : withModel;
  out.line(
    `Translated ${keyCount} key${keyCount === 1 ? '' : 's'} into ${work.length} locale${work.length === 1 ? '' : 's'}` +
      `${via}: ${tokens}, ${seconds} s.`,
  );
  if (memoryKeys > 0) {
    out.line(
      `${memoryKeys} key${memoryKeys === 1 ? '' : 's'} came from translation memory, without the model: ` +
        `about ${Math.ceil(memorySavedChars / CHARS_PER_TOKEN)} tokens saved (estimated at ${CHARS_PER_TOKEN} characters a token).`,
    );
  }
  if (options.fix) printFixed(outcomes, options.fix, out.line);
  printLocaleNotes(out, work);
  reportGlossaryMisses(outcomes, out.note);
  problems.print(out.note);
  for (const outcome of outcomes) {
    if (outcome.keptHuman === 0) continue;
    out.note(
      `${outcome.locale}: kept ${outcome.keptHuman} translation${outcome.keptHuman === 1 ? '' : 's'} by a person ` +
        '(not sent to the model; `--overwrite-human` translates them again)',
    );
  }
  const failedLocales = outcomes.filter((outcome) => outcome.error || outcome.failedKeys.length > 0);
  for (const outcome of failedLocales) {
    const what = outcome.error
      ? `${outcome.error.code}: ${outcome.error.message}`
      : `${outcome.failedKeys.length} keys not translated (${outcome.failedKeys.slice(0, 10).join(', ')}${outcome.failedKeys.length > 10 ? ', ...' : ''}); nothing of them was uploaded`;
    out.note(`${outcome.locale}: ${what}`);
    for (const problem of outcome.problems.slice(0, 20)) out.note(`  ${problem}`);
  }
  out.document({
    ...summaryDocument(outcomes, provider, modelId, usage, started, memorySavedChars),
    ...problems.document(),
  });
  return exitCode(out, options.fatal, failedLocales, problems.failed.length);
}

/**
 * What went otherwise than asked in each locale: local values a translation replaced, uploads
 * merged again, a person's uploads kept, keys left for people, batches sent without examples.
 */
function printLocaleNotes(out: Output, work: readonly LocaleWork[]) {
  const outcomes = work.map((item) => item.outcome);
  for (const outcome of outcomes) {
    if (outcome.replacedLocal.length === 0) continue;
    out.note(
      `${outcome.locale}: a new translation replaced your local value, never uploaded, of ` +
        `${outcome.replacedLocal.slice(0, 20).join(', ')}${outcome.replacedLocal.length > 20 ? ', ...' : ''} ` +
        '(it was made for an older source text)',
    );
  }
  for (const { locale, mergedAgain, keptHumanMeanwhile: kept } of outcomes) {
    if (mergedAgain) out.line(describeMergedAgain(locale, mergedAgain));
    if (kept.length === 0) continue;
    out.note(
      `${locale}: kept ${kept.length} translation${kept.length === 1 ? '' : 's'} a person uploaded while this run ` +
        `was translating (${kept.slice(0, 20).join(', ')}${kept.length > 20 ? ', ...' : ''}); the model's not uploaded`,
    );
  }
  for (const { locale, leftForPeople: left } of outcomes) {
    if (left.length === 0) continue;
    out.note(
      `${locale}: ${left.length} key${left.length === 1 ? '' : 's'} left for people (humanOnly key rules): ` +
        `${left.slice(0, 20).join(', ')}${left.length > 20 ? ', ...' : ''}`,
    );
  }
  for (const { locale, memoryExamplesSkipped: skipped } of outcomes) {
    if (skipped.length === 0) continue;
    skipped.sort((a, b) => a - b);
    const batches = work.find((item) => item.locale === locale)!.batches.length;
    out.note(
      `${locale}: batch${skipped.length === 1 ? '' : 'es'} ${skipped.join(', ')} of ${batches} went to the model ` +
        "without examples from translation memory: the server's similarity search took too long",
    );
  }
}

/**
 * A provider's failure ends the run with its exit code; a locale with an error or keys not
 * translated, with a failure (auth when the server refused the credential); else ok, or partial
 * when files could not be read.
 */
function exitCode(
  out: Output,
  fatal: CliError | undefined,
  failedLocales: readonly LocaleOutcome[],
  unreadFiles: number,
): ExitCode {
  if (fatal) {
    out.error(fatal);
    return fatal.exitCode;
  }
  if (failedLocales.length > 0) {
    const firstError = failedLocales.find((outcome) => outcome.error)?.error;
    if (firstError) out.note(`error: ${firstError.code}: ${firstError.message}`);
    return failedLocales.some(
      (outcome) => outcome.error?.code === 'UNAUTHORIZED' || outcome.error?.code === 'FORBIDDEN',
    )
      ? ExitCode.auth
      : ExitCode.failure;
  }
  return withUnreadFiles(ExitCode.ok, unreadFiles);
}

/** `--fix`: per locale with keys to fix, how many were fixed; or that none had any. */
function printFixed(outcomes: readonly LocaleOutcome[], level: FixLevel, line: (text: string) => void) {
  const fixing = outcomes.filter((outcome) => outcome.toFix > 0);
  if (fixing.length === 0) line(`No translation has ${findingsOf(level)} to fix.`);
  for (const { locale, toFix, fixed } of fixing) {
    line(
      `${locale}: fixed ${fixed} of ${toFix} key${toFix === 1 ? '' : 's'} with ${findingsOf(level)}` +
        (fixed < toFix ? ' (the others keep their text: no answer passed every rule)' : ''),
    );
  }
}

/** What `--fix` fixes, as the summary says it. */
function findingsOf(level: FixLevel): string {
  return level === 'warnings' ? 'errors or warnings' : 'errors';
}

function summaryDocument(
  outcomes: LocaleOutcome[],
  provider: string | undefined,
  model: string | undefined,
  usage: TokenUsage,
  started: number,
  memorySavedChars = 0,
) {
  return {
    keys: outcomes.reduce((sum, outcome) => sum + outcome.translated, 0),
    locales: outcomes,
    provider: provider ?? null,
    model: model ?? null,
    usage,
    memory: {
      keys: outcomes.reduce((sum, outcome) => sum + outcome.fromMemory, 0),
      tokensSavedEstimate: Math.ceil(memorySavedChars / CHARS_PER_TOKEN),
    },
    durationMs: Date.now() - started,
  };
}
