import { targetKeys, type ParsedSource, type TargetKeys } from '@tolk/locale-file';
import type { AiProvider, LocaleResponse } from '@tolk/contracts';
import {
  ProviderError,
  TranslationRejectedError,
  createModel,
  providerInfo,
  translateBatch,
  translateBatchForLocales,
  type KeyProblem,
  type MemoryExample,
  type TranslateBatchResult,
} from '../ai/index.js';
import { caughtUpLocales } from '../api/caught-up-locales.js';
import { projectAndSource } from '../api/project-and-source.js';
import { tolkApi, type TolkApi } from '../api/tolk-api.js';
import { projectContext } from '../context.js';
import { CliError, ExitCode, usageError, withUnreadFiles } from '../errors.js';
import {
  describeSource,
  keysOfParts,
  layoutParts,
  readLocalValues,
  writeTargetFile,
  type LocalFiles,
  type SourcePart,
} from '../files/file-sets.js';
import { fileProblems } from '../files/file-problems.js';
import { parseLocaleDocument, shown } from '../files/locale-files.js';
import {
  isUnsyncedLocal,
  keepRecords,
  loadSyncState,
  saveSyncState,
  syncedHashes,
  type SyncState,
} from '../files/sync-state.js';
import type { Io } from '../io.js';
import { parseLocaleList } from '../locales.js';
import { contextNotes, planBatches, shareBatches } from '../translate/batches.js';
import { compileGlossary, glossaryMiss, reportGlossaryMisses } from '../translate/glossary.js';
import type { FixLevel } from '../translate/fix.js';
import { nothingToPlan, planLocale } from '../translate/plan-locale.js';
import { mergeTranslations, valuesOf } from '../translate/merge.js';
import { createProgress, type Progress } from '../translate/progress.js';
import {
  keysWithLocalValues,
  leftForPeople,
  projectKeyRules,
  unitsForModel,
} from '../translate/key-rules.js';
import type { KeyRuleMatcher } from '@tolk/contracts';
import { resolveProviderKey } from '../translate/provider-key.js';
import { shareIdenticalTexts, translationUnits, type TranslationUnit } from '../translate/units.js';
import { CHARS_PER_TOKEN, fillFromMemory, memoryExamples } from '../translate/memory.js';
import { describeMergedAgain, uploadMerged } from '../translate/upload-merged.js';

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

/** What happened to one locale, as the summary and --json report it. */
type LocaleOutcome = {
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

type LocaleWork = {
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

/**
 * For each behind locale: its missing and outdated keys (all keys with --force) in batches to the
 * model, every answer checked before use; then the local target file merged and written, and
 * uploaded with the source version the translations were made from.
 */
export async function translate(io: Io, options: TranslateOptions) {
  const started = Date.now();
  const { out, project, client, credential, apiUrl } = await projectContext(io, options);
  const api = tolkApi(client);
  const { projectId, sourceLocale, targetLocales } = project.config;
  const chosen = options.locale.length > 0 ? parseLocaleList(options.locale, '--locale') : targetLocales;
  if (chosen.includes(sourceLocale)) throw usageError(`--locale: ${sourceLocale} is the source locale`);
  if (chosen.length === 0)
    throw usageError('No target locales in tolk.json: add them with `tolk init --targets ...`');

  const {
    project: projectInfo,
    glossary: glossaryEntries,
    source: sourceFile,
  } = await projectAndSource(api, projectId, 'Nothing to translate yet');
  const { locales } = await caughtUpLocales(api, projectId, sourceFile.version, io.signal);
  const serverSourceDocument = JSON.parse(sourceFile.content) as Record<string, unknown>;
  const source = parseLocaleDocument(serverSourceDocument, project.file, io.cwd);
  const sourceFiles = await layoutParts({
    project,
    cwd: io.cwd,
    note: out.note,
    serverSourceDocument,
    source,
    version: sourceFile.version,
  });
  const { parts } = sourceFiles;
  const problems = fileProblems({
    source: "its namespace's keys were not translated and its target files not written",
    target: 'its keys were not translated and it was not written; fix it and translate again',
  });
  problems.addSource(sourceFiles);
  const syncState = await loadSyncState(project.dir);

  const byCode = new Map(locales.map((locale) => [locale.locale, locale]));
  const unknown = chosen.filter((code) => !byCode.has(code));
  if (unknown.length > 0) {
    throw usageError(
      `${unknown.join(', ')}: not a target locale of the project; add it with \`tolk init --targets ...\``,
    );
  }
  const sourceValues = valuesOf(source);
  const valueOf = (key: string) => sourceValues.get(key) ?? '';
  const useMemory = options.memory ?? true;
  let memorySavedChars = 0;
  const glossary = compileGlossary(glossaryEntries.entries);
  const i18nextPlurals = projectInfo.settings.i18nextPlurals ?? true;
  const rules = projectKeyRules(projectInfo);
  const work: LocaleWork[] = [];
  for (const code of chosen) {
    const state = byCode.get(code)!;
    const target = targetKeys(source, code, { i18nextPlurals });
    const local = await readLocalValues(parts, code, io.cwd);
    problems.addLocal(local);
    const unread = keysOfParts(target.keys, [
      ...(local?.failed.keys() ?? []),
      ...sourceFiles.failed.map(({ file }) => ({ file })),
    ]);
    // Every file of the locale unread: there is nothing it can be told or given.
    if (unread.size > 0 && unread.size === target.keys.length) continue;
    const upToDate =
      !options.force && state.status === 'up_to_date' && state.sourceVersion === sourceFile.version;
    // --fix plans an up-to-date locale too: its translations may have findings to fix.
    let plan =
      upToDate && !options.fix
        ? undefined
        : await planLocale({
            api,
            projectId,
            locale: code,
            version: sourceFile.version,
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

  if (work.length === 0) {
    if (problems.failed.length === 0) {
      const fixing = options.fix ? ` and no translation has ${findingsOf(options.fix)} to fix` : '';
      out.line(
        `Every locale is up to date with source version ${sourceFile.version}${fixing}; nothing to translate.`,
      );
    }
    problems.print(out.note);
    out.document({
      ...summaryDocument([], undefined, undefined, { inputTokens: 0, outputTokens: 0 }, started),
      ...problems.document(),
    });
    return problems.exitCode();
  }

  const needsModel = work.some((item) => item.keys.length > 0);
  let provider: AiProvider | undefined;
  let modelId: string | undefined;
  let model: ReturnType<typeof createModel>['model'] | undefined;
  if (needsModel) {
    provider = options.provider ?? (projectInfo.settings.provider as AiProvider | null) ?? 'openai';
    const info = providerInfo(provider);
    const settingsModel =
      provider === (projectInfo.settings.provider ?? 'openai')
        ? (projectInfo.settings.model ?? undefined)
        : undefined;
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

  const toStderr = out.json;
  const progressSink = toStderr ? io.stderr : io.stdout;
  const progress = createProgress(progressSink, {
    tty: io.isTTY && !toStderr,
    locales: work.map((item) => ({ locale: item.locale, total: item.keys.length })),
  });
  const usage = { inputTokens: 0, outputTokens: 0 };
  let fatal: CliError | undefined;

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

  const finish = async (item: LocaleWork) => {
    progress.state(item.locale, 'uploading');
    await uploadLocale({
      model: provider && modelId ? `${provider}:${modelId}` : undefined,
      io,
      api,
      projectId,
      source,
      parts,
      sourceLocale,
      i18nextPlurals,
      rules,
      syncState,
      version: sourceFile.version,
      item,
      progress,
    });
  };

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
      instructions: projectInfo.settings.instructions,
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
  await saveSyncState(project.dir, syncState);

  const outcomes = work.map((item) => item.outcome);
  const failedLocales = outcomes.filter((outcome) => outcome.error || outcome.failedKeys.length > 0);
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
  reportGlossaryMisses(outcomes, out.note);
  problems.print(out.note);
  for (const outcome of outcomes) {
    if (outcome.keptHuman === 0) continue;
    out.note(
      `${outcome.locale}: kept ${outcome.keptHuman} translation${outcome.keptHuman === 1 ? '' : 's'} by a person ` +
        '(not sent to the model; `--overwrite-human` translates them again)',
    );
  }
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
  return withUnreadFiles(ExitCode.ok, problems.failed.length);
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

async function uploadLocale(options: {
  /** `<provider>:<model>` of the model that translated this run, if one did. */
  model: string | undefined;
  io: Io;
  api: TolkApi;
  projectId: string;
  source: ParsedSource;
  parts: SourcePart[];
  sourceLocale: string;
  i18nextPlurals: boolean;
  rules: KeyRuleMatcher;
  syncState: SyncState;
  version: number;
  item: LocaleWork;
  progress: Progress;
}) {
  const { io, api, projectId, source, parts, version, item, progress, syncState } = options;
  const { outcome } = item;
  try {
    // Read once, before this run writes them: a merge made again writes the files again from
    // what they held, and never takes its own first merge for local work.
    const localFiles = await readLocalValues(parts, item.locale, io.cwd);
    const local = localFiles?.values;
    const synced = syncState.locales[item.locale] ?? new Map<string, string>();
    let values = new Map<string, string>();
    const uploaded = await uploadMerged({
      api,
      projectId,
      locale: item.locale,
      merge: async (serverTranslations) => {
        const server = valuesOf(
          parseLocaleDocument(JSON.parse(serverTranslations.content), outcome.file, io.cwd),
        );
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
          rules: options.rules,
        });
        outcome.translated = item.translated.size;
        outcome.failedKeys = item.target.keys.filter((key) => item.failed.has(key));
        values = valuesOf(parseLocaleDocument(merged.document, outcome.file, io.cwd));
        outcome.fixed = [...item.fixes.keys()].filter(
          (key) => translated.has(key) && values.get(key) === translated.get(key),
        ).length;
        outcome.leftForPeople = leftForPeople(item.target, options.rules, values);
        for (const part of parts) {
          if (localFiles?.failed.has(part)) continue;
          await writeTargetFile({
            part,
            sourceLocale: options.sourceLocale,
            locale: item.locale,
            i18nextPlurals: options.i18nextPlurals,
            valueOf: (key) => values.get(key),
            existing: localFiles?.existing.get(part),
            // What was synced before this run: a key the source lacks goes only when Tolk synced it.
            synced,
            cwd: io.cwd,
          });
        }
        // The keys the model wrote are claimed as its, those from memory as memory's; the rest is a
        // person's or kept as it was.
        const written = [...translated.keys()].filter((key) => values.has(key));
        const byModel = written.filter((key) => !item.fromMemory.has(key));
        const byMemory = written.filter((key) => item.fromMemory.has(key));
        const claim =
          (options.model && byModel.length > 0) || byMemory.length > 0
            ? {
                ...(options.model && byModel.length > 0
                  ? { ai: { model: options.model, keys: byModel } }
                  : {}),
                ...(byMemory.length > 0 ? { memory: { keys: byMemory } } : {}),
              }
            : undefined;
        return { document: merged.document, sourceVersion: version, claim, ownKeys: merged.ownKeys };
      },
    });
    // A merge always has something to upload: the locale is uploaded to catch up with the source.
    const { answer, mergedAgain } = uploaded!;
    outcome.mergedAgain = mergedAgain ?? null;
    syncState.versions[item.locale] = version;
    const hashes = syncedHashes(values, (await readLocalValues(parts, item.locale, io.cwd))?.values);
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

/** A memory lookup that failed costs the run nothing but the model's work: said, then carried on. */
function memoryUnavailable(out: { note(text: string): void }, locale: string) {
  return (error: unknown) => {
    if (!(error instanceof CliError)) throw error;
    out.note(`${locale}: translation memory unavailable (${error.code}: ${error.message}); asking the model`);
    return undefined;
  };
}

function describeProblems(problems: readonly KeyProblem[]): string {
  const keys = [...new Set(problems.map((problem) => problem.key))];
  const first = problems[0];
  return `${keys.length} key${keys.length === 1 ? '' : 's'}${first ? `, e.g. ${first.key}: ${first.message}` : ''}`;
}

function summaryDocument(
  outcomes: LocaleOutcome[],
  provider: string | undefined,
  model: string | undefined,
  usage: { inputTokens: number; outputTokens: number },
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
