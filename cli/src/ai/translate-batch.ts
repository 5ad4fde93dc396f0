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
  type MemoryExample,
  type PluralGroupRequest,
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
  const maxAttempts = Math.max(1, input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const context = new Map(Object.entries(input.context ?? {}));
  const all = Object.entries(input.strings);
  let plurals = input.plurals ?? [];
  const groupForms = new Set(plurals.flatMap((group) => group.sources));
  let plainKeys = new Set(all.map(([key]) => key).filter((key) => !groupForms.has(key)));
  const translations = new Map<string, string>();
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  let problems: KeyProblem[] = [];
  let withheld = new Map<string, string>();
  let attempts = 0;

  while ((plainKeys.size > 0 || plurals.length > 0) && attempts < maxAttempts) {
    attempts++;
    const shown = new Set([...plainKeys, ...plurals.flatMap((group) => group.sources)]);
    const strings = new Map(all.filter(([key]) => shown.has(key)));
    const request: TranslationRequest = {
      sourceLocale: input.sourceLocale,
      targetLocale: input.targetLocale,
      instructions: input.instructions,
      strings,
      plurals,
      context,
      examples: input.examples ?? [],
      references: input.references,
      // Every problem but an extra key belongs to a key or group that is asked again.
      earlierProblems: problems.filter((p) => p.kind !== 'unexpected-key'),
      glossary: input.glossary && glossarySection(input.glossary, strings.values(), input.targetLocale),
    };
    const answer = await requestAnswer(input, request);
    usage.inputTokens += answer.usage.inputTokens;
    usage.outputTokens += answer.usage.outputTokens;

    const glossary = input.glossary;
    const misses =
      glossary &&
      ((source: string, text: string) => glossaryMiss(glossary, source, text, input.targetLocale));
    const answerText = decodeAnswer(answer.text, answerItems(strings.keys(), plurals));
    const checked = checkAnswer(strings, answerText, input.targetLocale, plurals, misses);
    for (const [key, value] of checked.accepted) translations.set(key, value);
    problems = checked.problems;
    withheld = checked.withheld ?? new Map();
    plainKeys = new Set([...plainKeys].filter((key) => !checked.accepted.has(key)));
    plurals = plurals.filter((group) => !group.forms.every((form) => checked.accepted.has(form.key)));
    if (plainKeys.size > 0 || plurals.length > 0) input.onAttemptFailed?.({ attempt: attempts, problems });
  }

  // A translation that only misses a glossary term is kept after the last attempt, and reported:
  // an inflected or reworded term is often right, and a person decides.
  for (const [key, value] of withheld) {
    translations.set(key, value);
    plainKeys.delete(key);
  }
  plurals = plurals.filter((group) => !group.forms.every((form) => translations.has(form.key)));
  const glossaryMisses = problems.filter((p) => p.kind === 'glossary');
  const result = recordOf(translations);
  if (plainKeys.size > 0 || plurals.length > 0)
    throw new TranslationRejectedError(problems, attempts, result, usage);
  return { translations: result, usage, attempts, glossaryMisses };
}

async function requestAnswer(
  input: TranslateBatchInput,
  request: TranslationRequest,
): Promise<{ text: string; usage: TokenUsage }> {
  try {
    const result = await generateText({
      model: input.model,
      system: buildSystemPrompt(request),
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
