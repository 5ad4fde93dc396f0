/**
 * The ICU MessageFormat rules of DESIGN §11, checked with formatjs's parser (the one
 * intl-messageformat and react-intl run), on translation upload and on a model's answer:
 * - when a source value parses as ICU, its translation must parse too (a plain-text source's
 *   translation may instead use `{{x}}`, which is never ICU: i18next's placeholders);
 * - every `plural` / `selectordinal` of the source comes back with every CLDR category of the
 *   target locale (`other` always; `=0`, `=1` are extra; a category the locale never uses is
 *   accepted); a locale whose only category is `other` (ja, zh, ko…) may drop it and use the
 *   argument directly;
 * - `select` keeps `other` (the parser refuses one without it).
 * Placeholders (which arguments, tags, `{{x}}`, printf) are the lenient scanner's business
 * (placeholders.ts): it also reads the syntaxes that are not ICU, so the two run side by side.
 *
 * Tags are read as text (`ignoreTag`): sources hold HTML with attributes, which formatjs's tag
 * syntax does not allow, and the scanner checks tags already.
 */
import { TYPE, parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { FlatEntries } from './diff.js';
import { translationLookup } from './placeholders.js';
import {
  isPluralCategory,
  pluralCategories,
  type PluralCategory,
  type PluralType,
} from './plural-categories.js';

/** A `plural` or `selectordinal` argument of the source whose translation lacks categories. */
export type PluralGap = { argument: string; type: PluralType; missing: PluralCategory[] };

/** What breaks an ICU rule: a translation that does not parse, or plurals lacking categories. */
export type IcuViolation =
  { kind: 'icu-syntax'; error: string } | { kind: 'plural-categories'; gaps: PluralGap[] };

export type IcuProblem = { key: string; message: string } & IcuViolation;

type Parsed = { ok: true; elements: MessageFormatElement[] } | { ok: false; error: string };

const LITERAL: Parsed = { ok: true, elements: [] };

/**
 * Only `{` starts ICU syntax: a text without one is a literal and always parses, so most values
 * are never handed to the parser.
 */
function parseIcu(text: string): Parsed {
  if (!text.includes('{')) return LITERAL;
  try {
    return { ok: true, elements: parse(text, { ignoreTag: true }) };
  } catch (error) {
    const { message, location } = error as SyntaxError & { location?: { start: { offset: number } } };
    const at = location ? ` at character ${location.start.offset + 1}` : '';
    return { ok: false, error: `${message}${at}` };
  }
}

/** `plural:count` / `selectordinal:n` → the selectors of each occurrence. */
type PluralArguments = Map<string, Set<string>[]>;

function pluralArguments(elements: readonly MessageFormatElement[], into: PluralArguments = new Map()) {
  for (const element of elements) {
    if (element.type === TYPE.plural) {
      const id = `${element.pluralType === 'ordinal' ? 'ordinal' : 'cardinal'}:${element.value}`;
      const occurrences = into.get(id) ?? [];
      occurrences.push(new Set(Object.keys(element.options)));
      into.set(id, occurrences);
    }
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) pluralArguments(option.value, into);
    } else if (element.type === TYPE.tag) {
      pluralArguments(element.children, into);
    }
  }
  return into;
}

/** What the rules need of a source value: whether it parses, and its plural arguments. */
type SourceShape = { ok: false } | { ok: true; plurals: PluralArguments };

const NOT_ICU: SourceShape = { ok: false };
const NO_PLURALS: SourceShape = { ok: true, plurals: new Map() };

/**
 * The shapes of a source's values, by the identity of its values array, filled as keys are
 * checked. Source versions never change and locale-service caches each as one object, so uploads
 * made from the same version parse its values once, not once per upload and target locale.
 */
const sourceShapes = new WeakMap<readonly string[], (SourceShape | undefined)[]>();

/**
 * Values arrays made of another's values (a locale's keys judged against the source's: a plural
 * form against its group's form): index → the index of the same value in the other, whose shapes
 * they share. Every target locale of a version is judged against its own array; its values are
 * parsed once for all of them, as the version's own.
 */
const sharedShapes = new WeakMap<readonly string[], { values: readonly string[]; origins: Int32Array }>();

/** `values[i]` is `of.values[origins[i]]`: shapes parsed for either serve both. */
export function shareSourceShapes(values: readonly string[], of: FlatEntries, origins: Int32Array): void {
  sharedShapes.set(values, { values: of.values, origins });
}

function sourceShape(source: FlatEntries, index: number): SourceShape {
  const shared = sharedShapes.get(source.values);
  if (shared) return sourceShape({ keys: source.keys, values: shared.values }, shared.origins[index]!);
  let shapes = sourceShapes.get(source.values);
  if (!shapes) sourceShapes.set(source.values, (shapes = []));
  let shape = shapes[index];
  if (!shape) {
    const parsed = parseIcu(source.values[index]!);
    const plurals = parsed.ok ? pluralArguments(parsed.elements) : undefined;
    // Most values have no plural: they share one shape, so a large version costs an array slot each.
    shape = !plurals ? NOT_ICU : plurals.size === 0 ? NO_PLURALS : { ok: true, plurals };
    shapes[index] = shape;
  }
  return shape;
}

/** A part of a source's keys, by index: `start` included, `end` not. */
export type KeyRange = { start: number; end: number };

const ALL_KEYS: KeyRange = { start: 0, end: Number.POSITIVE_INFINITY };

/**
 * Every key present in both whose translation breaks the ICU rules for `locale`, in source key
 * order (of the keys in `range` only, so a caller can check a large upload in slices). A source
 * value that does not parse as ICU (i18next `{{x}}`, printf) has no ICU rules.
 */
export function findIcuProblems(
  source: FlatEntries,
  translations: ReadonlyMap<string, string> | FlatEntries,
  locale: string,
  range: KeyRange = ALL_KEYS,
): IcuProblem[] {
  const translationOf = translationLookup(translations);
  const categories = new Map<PluralType, PluralCategory[]>();
  const categoriesOf = (type: PluralType) => {
    let known = categories.get(type);
    if (!known) categories.set(type, (known = pluralCategories(locale, type)));
    return known;
  };
  const problems: IcuProblem[] = [];
  const end = Math.min(range.end, source.keys.length);
  for (let i = range.start; i < end; i++) {
    const key = source.keys[i]!;
    const translation = translationOf(key, i);
    if (translation === undefined) continue;
    const shape = sourceShape(source, i);
    if (!shape.ok) continue;
    // A source with no `{` is plain text, ICU or not: its translation may use `{{count}}` (an
    // i18next form that needs the number where English needs none, Russian `one` for 21).
    if (shape === NO_PLURALS && !source.values[i]!.includes('{') && translation.includes('{{')) continue;
    const plurals = translation === source.values[i] ? shape.plurals : translationPlurals(translation);
    if (typeof plurals === 'string') {
      problems.push({
        key,
        kind: 'icu-syntax',
        error: plurals,
        message: `does not parse as an ICU message, as its source does (${plurals})`,
      });
      continue;
    }
    const gaps = pluralGaps(shape.plurals, plurals, categoriesOf);
    if (gaps.length > 0) {
      problems.push({ key, kind: 'plural-categories', gaps, message: describeGaps(gaps, locale) });
    }
  }
  return problems;
}

/** A `plural` or `selectordinal` argument with categories its locale never selects. */
export type UnusedCategories = { argument: string; type: PluralType; unused: PluralCategory[] };

/**
 * The plural arguments of `message` with CLDR categories `locale` does not use (Polish `two`,
 * Japanese `one`): harmless at run time, never selected. `=0`-style selectors are not categories.
 * A message that does not parse has none (the ICU rules say why it does not).
 */
export function unusedPluralCategories(message: string, locale: string): UnusedCategories[] {
  if (!message.includes('plural') && !message.includes('selectordinal')) return [];
  const parsed = parseIcu(message);
  if (!parsed.ok) return [];
  const found: UnusedCategories[] = [];
  for (const [id, occurrences] of pluralArguments(parsed.elements)) {
    const [type, argument] = splitId(id);
    const used = pluralCategories(locale, type);
    const unused = new Set<PluralCategory>();
    for (const selectors of occurrences) {
      for (const selector of selectors) {
        if (isPluralCategory(selector) && !used.includes(selector)) unused.add(selector);
      }
    }
    if (unused.size > 0) found.push({ argument, type, unused: [...unused] });
  }
  return found;
}

/** The plural arguments of a translation, or the parser's error. */
function translationPlurals(translation: string): PluralArguments | string {
  const parsed = parseIcu(translation);
  return parsed.ok ? pluralArguments(parsed.elements) : parsed.error;
}

function pluralGaps(
  source: PluralArguments,
  translation: PluralArguments,
  categoriesOf: (type: PluralType) => PluralCategory[],
): PluralGap[] {
  const gaps: PluralGap[] = [];
  for (const id of source.keys()) {
    const [type, argument] = splitId(id);
    const needed = categoriesOf(type);
    const occurrences = translation.get(id);
    // A locale with `other` alone may say `{count}` where the source needs a plural.
    if (!occurrences) {
      if (needed.length > 1) gaps.push({ argument, type, missing: needed });
      continue;
    }
    const missing = needed.filter((category) => occurrences.some((selectors) => !selectors.has(category)));
    if (missing.length > 0) gaps.push({ argument, type, missing });
  }
  return gaps;
}

function splitId(id: string): [PluralType, string] {
  const colon = id.indexOf(':');
  return [id.slice(0, colon) as PluralType, id.slice(colon + 1)];
}

/** `{count, plural} lacks few, many (pl: one, few, many, other)` */
function describeGaps(gaps: readonly PluralGap[], locale: string): string {
  return gaps
    .map(({ argument, type, missing }) => {
      const kind = type === 'ordinal' ? 'selectordinal' : 'plural';
      const all = pluralCategories(locale, type).join(', ');
      return `{${argument}, ${kind}} lacks ${missing.join(', ')} (${locale}${type === 'ordinal' ? ' ordinals' : ''}: ${all})`;
    })
    .join('; ');
}
