import type { JSONSchema7, UserModelMessage } from 'ai';
import type { KeyProblem } from './errors.js';

export type TranslationRequest = {
  sourceLocale: string;
  targetLocale: string;
  instructions?: string | null;
  /** key → source text, in the order they are sent. */
  strings: ReadonlyMap<string, string>;
  /** key → context annotation; only the keys of `strings` are sent. */
  context: ReadonlyMap<string, string>;
  /** What was wrong with an earlier answer for these keys, told to the model on a retry. */
  earlierProblems: readonly KeyProblem[];
};

/** The rules of the job; the project's own instructions follow them. */
export function buildSystemPrompt(request: TranslationRequest): string {
  const { sourceLocale, targetLocale } = request;
  const rules = [
    `You translate the user-interface strings of a software product from ${sourceLocale} to ${targetLocale}.`,
    'You receive a JSON object that maps string keys to source texts. Answer with a JSON object that has ' +
      'exactly the same keys, each mapped to the translation of its text as a string. Never translate, add, ' +
      'drop or rename a key.',
    'Keep every placeholder exactly as written and do not translate its name: ICU arguments such as {name}, ' +
      '{count, number} or {d, date, short}, {{name}}, printf conversions such as %s, %d or %1$s, and markup ' +
      'tags such as <b>...</b>, <0>...</0> or <br/>.',
    'In ICU plural, selectordinal and select messages keep the argument name and the keyword, translate only ' +
      `the text inside the branches, use the plural categories of ${targetLocale} (always keep "other") and ` +
      'keep "#". Keep ICU quoting with apostrophes working.',
    'Keep leading and trailing whitespace and line breaks. Context notes describe where a string appears; use ' +
      'them to choose words, never translate them.',
  ].join('\n');
  const instructions = request.instructions?.trim();
  if (!instructions) return rules;
  return `${rules}\n\nThe project's instructions for translators:\n${instructions}`;
}

/**
 * One user message of one text: locales, context notes and the problems of an earlier answer,
 * then, as its last line, exactly the JSON object of key → text to translate (JSON.stringify
 * escapes line breaks, so the object is always one line), so that what was asked is
 * unambiguous and plain to read in a recording. One text rather than several parts, because some
 * providers (DeepSeek) join parts without a separator.
 */
export function buildUserMessage(request: TranslationRequest): UserModelMessage {
  const sections: string[] = [
    `Source locale: ${request.sourceLocale}\nTarget locale: ${request.targetLocale}`,
  ];
  const notes = entriesOf(request.context, request.strings);
  if (notes.length > 0) {
    sections.push(`Context notes for some keys (JSON, key → note):\n${JSON.stringify(recordOf(notes))}`);
  }
  if (request.earlierProblems.length > 0) {
    const lines = request.earlierProblems.map((p) => `- ${JSON.stringify(p.key)}: ${p.message}`);
    sections.push(`An earlier answer was rejected for these keys; fix this:\n${lines.join('\n')}`);
  }
  sections.push(`Translate this JSON object:\n${JSON.stringify(recordOf([...request.strings]))}`);
  return { role: 'user', content: sections.join('\n\n') };
}

/** An object with exactly the requested keys, each a string (strict structured output). */
export function buildAnswerSchema(keys: Iterable<string>): JSONSchema7 {
  const names = [...keys];
  return {
    type: 'object',
    properties: recordOf(names.map((key) => [key, { type: 'string' }] as const)),
    required: names,
    additionalProperties: false,
  };
}

/**
 * A plain object from entries, safe for any key: `__proto__` becomes an own property (as
 * JSON.parse would make it) instead of replacing the prototype, so it is serialised like any other.
 */
export function recordOf<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const record: Record<string, T> = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return record;
}

function entriesOf(
  notes: ReadonlyMap<string, string>,
  keys: ReadonlyMap<string, string>,
): [string, string][] {
  const entries: [string, string][] = [];
  for (const key of keys.keys()) {
    const note = notes.get(key)?.trim();
    if (note) entries.push([key, note]);
  }
  return entries;
}
