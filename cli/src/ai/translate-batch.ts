import { generateText, type LanguageModel, type OutputInterface } from 'ai';
import { glossaryMiss, glossarySection, type CompiledGlossary } from '../translate/glossary.js';
import { checkAnswer } from './check-answer.js';
import { TranslationRejectedError, toProviderError, type KeyProblem } from './errors.js';
import {
  answerItems,
  buildSystemPrompt,
  buildUserMessage,
  decodeAnswer,
  recordOf,
  splitByLocale,
  type MemoryExample,
  type PluralGroupRequest,
  type Requests,
  type TranslationRequest,
} from './translation-prompt.js';

export type TokenUsage = { inputTokens: number; outputTokens: number };

export type TranslateBatchInput = {
  model: LanguageModel;
  sourceLocale: string;
  targetLocale: string;
  instructions?: string | null;
  /** key → source text. */
  strings: Record<string, string>;
  /**
   * The i18next plural groups among `strings` (their source forms are there): each is answered
   * with the target's forms, checked and asked again as one unit.
   */
  plurals?: readonly PluralGroupRequest[];
  /** key → context annotation (an ARB `@key` description). */
  context?: Record<string, string>;
  /** Translations of similar texts from translation memory, shown as examples. */
  examples?: readonly MemoryExample[];
  /** The project's glossary: the entries each request's strings use go into it, and answers are checked. */
  glossary?: CompiledGlossary;
  /**
   * Answer key → a person's translation of the key's earlier source text: the reference the
   * model keeps to (DESIGN §13). The answer is checked like any other.
   */
  references?: ReadonlyMap<string, string>;
  /** Answer key → what was found wrong in its reference (`translate --fix`): to keep and fix. */
  fixes?: ReadonlyMap<string, readonly string[]>;
  /** Requests for one batch when answers are bad: the first and the retries (default 3). */
  maxAttempts?: number;
  /** Retries of one request on 429, 5xx and network failures, with backoff, by the SDK (default 3). */
  maxRetries?: number;
  signal?: AbortSignal;
  onAttemptFailed?: (info: { attempt: number; problems: KeyProblem[] }) => void;
};

export type TranslateBatchResult = {
  /** key → translation, only keys that passed the checks (a group's target forms); a null-prototype object. */
  translations: Record<string, string>;
  /** Summed over every attempt. */
  usage: TokenUsage;
  attempts: number;
  /**
   * Keys still without the glossary's rendering after the last attempt (DESIGN §13): their last
   * translation is kept, in `translations`, and these say what the glossary wanted.
   */
  glossaryMisses: KeyProblem[];
};

const DEFAULT_MAX_ATTEMPTS = 3;
const DEFAULT_MAX_RETRIES = 3;

/**
 * Translates one batch of strings with one request (per attempt) that carries them as a JSON
 * object and asks for a JSON object with exactly those keys (for a plural group, the target's
 * forms in place of the source's; a group is one unit). Every answer is checked before
 * anything is returned; keys that pass are kept, and only the failing ones are asked again,
 * with the problems named, up to `maxAttempts` requests in all.
 *
 * Throws TranslationRejectedError when keys are still bad after the last attempt (it carries
 * the good ones), ProviderError when the provider fails after the SDK's retries, and the
 * signal's reason when aborted.
 */
export async function translateBatch(input: TranslateBatchInput): Promise<TranslateBatchResult> {
  return continueBatch(input, startBatch(input));
}

/** Where one locale's batch stands between attempts. */
type BatchState = {
  all: [string, string][];
  context: Map<string, string>;
  /** Plain keys and plural groups still to be answered well. */
  plainKeys: Set<string>;
  plurals: readonly PluralGroupRequest[];
  translations: Map<string, string>;
  usage: TokenUsage;
  /** What was wrong with the last answer, and the translations only the glossary refused. */
  problems: KeyProblem[];
  withheld: Map<string, string>;
  attempts: number;
};

function startBatch(input: TranslateBatchInput): BatchState {
  const all = Object.entries(input.strings);
  const plurals = input.plurals ?? [];
  const groupForms = new Set(plurals.flatMap((group) => group.sources));
  return {
    all,
    context: new Map(Object.entries(input.context ?? {})),
    plainKeys: new Set(all.map(([key]) => key).filter((key) => !groupForms.has(key))),
    plurals,
    translations: new Map(),
    usage: { inputTokens: 0, outputTokens: 0 },
    problems: [],
    withheld: new Map(),
    attempts: 0,
  };
}

const unanswered = (state: BatchState) => state.plainKeys.size > 0 || state.plurals.length > 0;

/** The next request of a batch: the keys and groups still unanswered, with what was wrong before. */
function nextRequest(input: TranslateBatchInput, state: BatchState): TranslationRequest {
  const shown = new Set([...state.plainKeys, ...state.plurals.flatMap((group) => group.sources)]);
  const strings = new Map(state.all.filter(([key]) => shown.has(key)));
  return {
    sourceLocale: input.sourceLocale,
    targetLocale: input.targetLocale,
    instructions: input.instructions,
    strings,
    plurals: state.plurals,
    context: state.context,
    examples: input.examples ?? [],
    references: input.references,
    fixes: input.fixes,
    // Every problem but an extra key belongs to a key or group that is asked again.
    earlierProblems: state.problems.filter((p) => p.kind !== 'unexpected-key'),
    glossary: input.glossary && glossarySection(input.glossary, strings.values(), input.targetLocale),
  };
}

/** An answer (its text for this locale) checked, and what it leaves to ask again. */
function takeAnswer(
  input: TranslateBatchInput,
  state: BatchState,
  request: TranslationRequest,
  text: string,
) {
  const glossary = input.glossary;
  const misses =
    glossary &&
    ((source: string, translated: string) => glossaryMiss(glossary, source, translated, input.targetLocale));
  const answerText = decodeAnswer(text, answerItems(request.strings.keys(), request.plurals));
  const checked = checkAnswer(request.strings, answerText, input.targetLocale, request.plurals, misses);
  for (const [key, value] of checked.accepted) state.translations.set(key, value);
  state.problems = checked.problems;
  state.withheld = checked.withheld ?? new Map();
  state.plainKeys = new Set([...state.plainKeys].filter((key) => !checked.accepted.has(key)));
  state.plurals = state.plurals.filter(
    (group) => !group.forms.every((form) => checked.accepted.has(form.key)),
  );
  if (unanswered(state)) input.onAttemptFailed?.({ attempt: state.attempts, problems: state.problems });
}

/** Asks again for what is still unanswered, up to the batch's attempts, then settles it. */
async function continueBatch(input: TranslateBatchInput, state: BatchState): Promise<TranslateBatchResult> {
  const maxAttempts = Math.max(1, input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  while (unanswered(state) && state.attempts < maxAttempts) {
    state.attempts++;
    const request = nextRequest(input, state);
    const answer = await requestAnswer(input, request);
    state.usage.inputTokens += answer.usage.inputTokens;
    state.usage.outputTokens += answer.usage.outputTokens;
    takeAnswer(input, state, request, answer.text);
  }

  // A translation that only misses a glossary term is kept after the last attempt, and reported:
  // an inflected or reworded term is often right, and a person decides.
  for (const [key, value] of state.withheld) {
    state.translations.set(key, value);
    state.plainKeys.delete(key);
  }
  state.plurals = state.plurals.filter(
    (group) => !group.forms.every((form) => state.translations.has(form.key)),
  );
  const glossaryMisses = state.problems.filter((p) => p.kind === 'glossary');
  const result = recordOf(state.translations);
  if (unanswered(state))
    throw new TranslationRejectedError(state.problems, state.attempts, result, state.usage);
  return { translations: result, usage: state.usage, attempts: state.attempts, glossaryMisses };
}

/** One target locale of a multi-locale batch: what is the locale's own in a TranslateBatchInput. */
export type LocaleBatch = Pick<
  TranslateBatchInput,
  'targetLocale' | 'plurals' | 'examples' | 'references' | 'fixes'
> & {
  onAttemptFailed?: TranslateBatchInput['onAttemptFailed'];
};

export type TranslateLocalesInput = Omit<TranslateBatchInput, keyof LocaleBatch> & {
  /** The locales, each with its plural groups (the same source forms), examples and references. */
  targets: readonly LocaleBatch[];
};

/**
 * The same strings into several locales with one request: the texts, notes and rules are sent
 * once and the answer holds one object per locale, each checked as translateBatch checks one.
 * What a locale's answer leaves unanswered is asked again for that locale alone, as
 * translateBatch would (up to `maxAttempts` requests in all for each key).
 *
 * Resolves with the shared request's usage and, per locale, its result or what translateBatch
 * would have thrown for it (TranslationRejectedError, ProviderError); a result's or error's usage
 * is the locale's own requests after the shared one. Rejects with ProviderError when the shared
 * request fails, and with the signal's reason when aborted.
 */
export async function translateBatchForLocales(
  input: TranslateLocalesInput,
): Promise<{ usage: TokenUsage; outcomes: Map<string, TranslateBatchResult | Error> }> {
  const inputs = input.targets.map((target): TranslateBatchInput => ({ ...input, ...target }));
  const states = inputs.map((one) => {
    const state = startBatch(one);
    state.attempts = 1;
    return state;
  });
  const requests = inputs.map((one, i) => nextRequest(one, states[i]!));
  const answer = await requestAnswer(input, requests);
  const texts = splitByLocale(
    answer.text,
    inputs.map((one) => one.targetLocale),
  );
  const outcomes = await Promise.all(
    inputs.map(async (one, i) => {
      const state = states[i]!;
      takeAnswer(one, state, requests[i]!, texts.get(one.targetLocale)!);
      try {
        return await continueBatch(one, state);
      } catch (error) {
        if (input.signal?.aborted || !(error instanceof Error)) throw error;
        return error;
      }
    }),
  );
  return { usage: answer.usage, outcomes: new Map(inputs.map((one, i) => [one.targetLocale, outcomes[i]!])) };
}

async function requestAnswer(
  input: Pick<TranslateBatchInput, 'model' | 'maxRetries' | 'signal'>,
  request: Requests,
): Promise<{ text: string; usage: TokenUsage }> {
  try {
    const result = await generateText({
      model: input.model,
      instructions: buildSystemPrompt(request),
      messages: [buildUserMessage(request)],
      output: jsonAnswer(input.model),
      maxRetries: input.maxRetries ?? DEFAULT_MAX_RETRIES,
      ...(input.signal && { abortSignal: input.signal }),
    });
    return {
      text: result.text,
      usage: { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 },
    };
  } catch (error) {
    if (input.signal?.aborted) throw input.signal.reason;
    throw toProviderError(error) ?? error;
  }
}

/**
 * Asks for a JSON object (JSON mode) but hands back the raw text: decodeAnswer maps its ids back
 * to keys and checkAnswer parses it, because Output.object's parser rejects `__proto__` keys and
 * would fail the whole answer for one bad key. No schema of the answer's ids: a strict one costs
 * as many prompt tokens as the texts themselves, and checkAnswer already asks again for exactly
 * the ids missing. OpenAI-compatible servers get the smallest schema instead of JSON mode, which
 * LM Studio rejects.
 */
function jsonAnswer(model: LanguageModel): OutputInterface<string, string, never> {
  const compatible = typeof model === 'object' && model.provider.startsWith('openai-compatible');
  return {
    name: 'object',
    responseFormat: Promise.resolve({
      type: 'json',
      ...(compatible && { schema: { type: 'object' } }),
      name: 'translations',
      description: 'The translation of each requested id',
    }),
    parseCompleteOutput: async ({ text }) => text,
    parsePartialOutput: async ({ text }) => ({ partial: text }),
    createElementStreamTransform: () => undefined,
  };
}
