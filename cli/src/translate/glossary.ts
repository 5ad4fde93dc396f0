import type { GlossaryEntry } from '@tolk/contracts';

/** A glossary entry with the pattern that finds its term in a source text. */
type CompiledEntry = { entry: GlossaryEntry; pattern: RegExp };

/** The project's glossary (DESIGN §13), ready to match: fetched once per `tolk translate`. */
export type CompiledGlossary = readonly CompiledEntry[];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Terms are found as whole words: not inside a longer word ("cart" not in "cartridge"), in any
 * script (a letter, digit or underscore on either side means inside a word), and ignoring case
 * unless the entry is case sensitive.
 */
export function compileGlossary(entries: readonly GlossaryEntry[]): CompiledGlossary {
  return entries.map((entry) => ({
    entry,
    pattern: new RegExp(
      `(?<![\\p{L}\\p{N}_])${escapeRegExp(entry.term)}(?![\\p{L}\\p{N}_])`,
      entry.caseSensitive ? 'u' : 'iu',
    ),
  }));
}

/**
 * A placeholder's name is not text: `{cart}`, `{{cart}}` and `{cart, number}` do not use the
 * term "cart" (an ICU branch such as `one {# cart}` is text and stays).
 */
const PLACEHOLDER = /\{\{\s*[\p{L}\p{N}_.-]+\s*\}\}|\{\s*[\p{L}\p{N}_.-]+\s*(?:,\s*[\p{L}_]+\s*)?\}/gu;

/** The entries whose terms occur in any of `texts`, outside placeholders. */
export function entriesUsedIn(glossary: CompiledGlossary, texts: Iterable<string>): GlossaryEntry[] {
  // `check` asks for each of a large app's values: without a glossary there is nothing to look for.
  if (glossary.length === 0) return [];
  const all = [...texts].map((text) => text.replace(PLACEHOLDER, ' '));
  return glossary.filter(({ pattern }) => all.some((text) => pattern.test(text))).map(({ entry }) => entry);
}

/**
 * How the term must be written in `locale`: itself when kept as is, else the rendering for the
 * locale, else for its language (`pt-BR` falls back to `pt`); undefined when there is none.
 */
export function renderingFor(entry: GlossaryEntry, locale: string): string | undefined {
  if (entry.keepAsIs) return entry.term;
  const language = locale.split('-')[0]!;
  return entry.translations[locale] ?? entry.translations[language];
}

/**
 * The prompt's glossary section for one request: only the entries whose terms occur in its
 * texts, and of those only the ones that say something for `locale` (a rendering, "keep as is"
 * or a note). Undefined when none does.
 */
export function glossarySection(
  glossary: CompiledGlossary,
  texts: Iterable<string>,
  locale: string,
): string | undefined {
  const lines: string[] = [];
  for (const entry of entriesUsedIn(glossary, texts)) {
    const rendering = renderingFor(entry, locale);
    const note = entry.note ? ` (note: ${entry.note.replace(/\s+/g, ' ')})` : '';
    const term = JSON.stringify(entry.term);
    if (entry.keepAsIs) lines.push(`- ${term}: keep as is, untranslated${note}`);
    else if (rendering !== undefined) lines.push(`- ${term} → ${JSON.stringify(rendering)}${note}`);
    else if (note) lines.push(`- ${term}${note}`);
  }
  if (lines.length === 0) return undefined;
  return (
    `Glossary: where a text uses one of these terms, its translation must use exactly the ${locale} ` +
    `rendering given (inflect it only where the grammar requires):\n${lines.join('\n')}`
  );
}

/**
 * What the check says of a translation whose source uses a glossary term but which lacks the
 * term's rendering for `locale` (the term itself when kept as is); undefined when it has every
 * one. A rendering is looked for anywhere in the translation (compounds and inflections keep it
 * as a prefix), ignoring case unless the entry is case sensitive.
 */
export function glossaryMiss(
  glossary: CompiledGlossary,
  source: string,
  translation: string,
  locale: string,
): string | undefined {
  const misses: string[] = [];
  for (const entry of entriesUsedIn(glossary, [source])) {
    const rendering = renderingFor(entry, locale);
    if (rendering === undefined) continue;
    const found = entry.caseSensitive
      ? translation.includes(rendering)
      : translation.toLocaleLowerCase(locale).includes(rendering.toLocaleLowerCase(locale));
    if (found) continue;
    misses.push(
      entry.keepAsIs
        ? `${JSON.stringify(entry.term)} must stay as is`
        : `${JSON.stringify(entry.term)} must be ${JSON.stringify(rendering)}`,
    );
  }
  return misses.length > 0 ? `does not follow the glossary: ${misses.join('; ')}` : undefined;
}

/**
 * The summary's lines about keys kept without the glossary's rendering (on stderr, as notes):
 * per locale, the keys named, then what each missed.
 */
export function reportGlossaryMisses(
  outcomes: readonly { locale: string; glossaryMisses: readonly { key: string; message: string }[] }[],
  note: (line: string) => void,
): void {
  for (const { locale, glossaryMisses } of outcomes) {
    if (glossaryMisses.length === 0) continue;
    const keys = glossaryMisses.map((miss) => miss.key);
    note(
      `${locale}: ${keys.length} key${keys.length === 1 ? '' : 's'} kept without the glossary's rendering ` +
        `after every attempt; check them: ${keys.slice(0, 20).join(', ')}${keys.length > 20 ? ', ...' : ''}`,
    );
    for (const miss of glossaryMisses.slice(0, 20)) note(`  ${miss.key}: ${miss.message}`);
  }
}
