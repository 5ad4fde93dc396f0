import { MAX_MEMORY_TEXT_LENGTH, MAX_MEMORY_TEXTS } from '@tolk/contracts';
import type { MemoryExample } from '../ai/translation-prompt.js';
import type { TolkApi } from '../api/tolk-api.js';
import type { TranslationUnit } from './units.js';

/** Near matches asked per text, texts of a batch asked for (its longest), and examples shown per batch. */
const NEAR_PER_TEXT = 3;
const NEAR_TEXTS_PER_BATCH = 10;
const EXAMPLES_PER_BATCH = 10;

/** Characters a token stands for, roughly, in the estimate of what memory saved. */
export const CHARS_PER_TOKEN = 4;

/** The text a unit is looked up by: a plain key's source text (plural groups are asked whole). */
function lookupText(unit: TranslationUnit, valueOf: (key: string) => string): string | undefined {
  if (unit.plural || unit.keys.length !== 1 || unit.sources[0] !== unit.keys[0]) return undefined;
  const text = valueOf(unit.sources[0]!);
  return text !== '' && text.length <= MAX_MEMORY_TEXT_LENGTH ? text : undefined;
}

/**
 * Fills units from translation memory (DESIGN §13): a key whose source text has a stored
 * translation into `locale` (this project's, else one of the caller's other projects') gets it
 * without the model. Returns those translations, the units left for the model, and the characters
 * of text (source and translation) the model was spared, for the estimate of tokens saved.
 */
export async function fillFromMemory(
  api: Pick<TolkApi, 'lookUpMemory'>,
  projectId: string,
  locale: string,
  units: readonly TranslationUnit[],
  valueOf: (key: string) => string,
  /** Whether a stored translation of a text may be used (the glossary's check). */
  accept: (text: string, translation: string) => boolean = () => true,
): Promise<{ filled: Map<string, string>; rest: TranslationUnit[]; savedChars: number }> {
  const textOf = new Map<TranslationUnit, string>();
  for (const unit of units) {
    const text = lookupText(unit, valueOf);
    if (text !== undefined) textOf.set(unit, text);
  }
  const texts = [...new Set(textOf.values())];
  const found = new Map<string, string>();
  for (let start = 0; start < texts.length; start += MAX_MEMORY_TEXTS) {
    const { matches } = await api.lookUpMemory(
      projectId,
      locale,
      texts.slice(start, start + MAX_MEMORY_TEXTS),
    );
    for (const match of matches) {
      if (match.exact && accept(match.text, match.exact.translation))
        found.set(match.text, match.exact.translation);
    }
  }
  const filled = new Map<string, string>();
  const rest: TranslationUnit[] = [];
  let savedChars = 0;
  for (const unit of units) {
    const text = textOf.get(unit);
    const translation = text === undefined ? undefined : found.get(text);
    if (translation === undefined) {
      rest.push(unit);
      continue;
    }
    filled.set(unit.keys[0]!, translation);
    savedChars += text!.length + translation.length;
  }
  return { filled, rest, savedChars };
}

/**
 * Translations of texts like the batch's (translation memory's near matches), the most similar
 * first, each once, at most EXAMPLES_PER_BATCH: the most similar always, the others while all
 * together are at most half as long as the batch's texts. Examples help the model, but a batch
 * of a few edited keys should not pay for more example than text (`npm run bench:translate`,
 * its second run). `timedOut`: the server gave the similarity search up (it took too long), so
 * there are none, whatever memory holds.
 */
export async function memoryExamples(
  api: Pick<TolkApi, 'lookUpMemory'>,
  projectId: string,
  locale: string,
  units: readonly TranslationUnit[],
  valueOf: (key: string) => string,
): Promise<{ examples: MemoryExample[]; timedOut: boolean }> {
  // The longest texts, where wording varies most: each is a similarity search on the server.
  const texts = [...new Set(units.flatMap((unit) => lookupText(unit, valueOf) ?? []))]
    .sort((a, b) => b.length - a.length)
    .slice(0, NEAR_TEXTS_PER_BATCH);
  if (texts.length === 0) return { examples: [], timedOut: false };
  const { matches, nearTimedOut } = await api.lookUpMemory(projectId, locale, texts, NEAR_PER_TEXT);
  if (nearTimedOut) return { examples: [], timedOut: true };
  const near = matches.flatMap((match) => match.near).sort((a, b) => b.similarity - a.similarity);
  let budget =
    units.reduce((sum, unit) => sum + unit.sources.reduce((n, key) => n + valueOf(key).length, 0), 0) / 2;
  const examples = new Map<string, MemoryExample>();
  for (const entry of near) {
    if (examples.size >= EXAMPLES_PER_BATCH) break;
    const length = entry.source.length + entry.translation.length;
    if (examples.has(entry.source) || (examples.size > 0 && length > budget)) continue;
    examples.set(entry.source, { source: entry.source, translation: entry.translation });
    budget -= length;
  }
  return { examples: [...examples.values()], timedOut: false };
}
