/**
 * The worst locale files the default limits allow, for bench:big-values and the hostile test
 * beside it: values as long as a value may be, with as many opening braces as a value may hold,
 * in the shapes that cost the checks the most (measured: a plural whose every branch has a
 * placeholder, selects nested as deep as the braces allow, a run of `{name}`), and a source of
 * as many keys as allowed that fills the body limit. Each comes with a translation into German
 * that passes every check, so that everything an accepted upload sets off runs too.
 */
import { DEFAULT_SOURCE_LIMITS } from '@tolk/locale-file';

const MIB = 1024 * 1024;
/** What the services allow of a body (SOURCE_MAX_BODY_BYTES / LOCALE_MAX_BODY_BYTES). */
export const BODY_LIMIT_BYTES = 10 * MIB;

const { maxValueLength, maxValueBraces, maxKeys } = DEFAULT_SOURCE_LIMITS;

/** A source file and its German translation, as uploaded. */
export type LocaleDocuments = { source: Buffer; german: Buffer };

const PROSE = 'The quick brown fox jumps over the lazy dog while the committee reviews the terms. ';

/** `text` cut or filled with prose to exactly `length` characters. */
function toLength(text: string, length: number): string {
  if (text.length >= length) return text.slice(0, length);
  return text + PROSE.repeat(Math.ceil((length - text.length) / PROSE.length)).slice(0, length - text.length);
}

/** How long a value may be and how many opening braces it may hold (the parser's limits). */
export type ValueLimits = { length: number; braces: number };

const DEFAULT_VALUE_LIMITS: ValueLimits = { length: maxValueLength, braces: maxValueBraces };

/** The shapes of value that cost the checks the most. */
export type WorstShape = 'plural' | 'nested' | 'placeholders';

/**
 * A value of `shape` at `limits`, its words `word` (another word, another language):
 * - plural: as many branches as the braces allow, each with a `{name}`, filling the length:
 *   `{count, plural, =0 {{name} …} =1 {{name} …} … other {{name} …}}`;
 * - nested: selects nested as deep as the braces allow (3 a level), then prose to the length;
 * - placeholders: as many `{name}` as the braces allow, then prose to the length.
 */
export function worstValue(
  shape: WorstShape,
  word: string,
  limits: ValueLimits = DEFAULT_VALUE_LIMITS,
): string {
  const { length, braces } = limits;
  if (shape === 'plural') {
    const branches = Math.floor((braces - 1) / 2);
    const build = (filler: number) => {
      const text = (label: string) => `{name} ${label} ${toLength('', filler)}`;
      const exact = Array.from({ length: branches - 2 }, (_, i) => `=${i} {${text(String(i))}}`);
      return `{count, plural, ${exact.join(' ')} one {${text('one')}} other {${text(word)}}}`;
    };
    return build(Math.floor((length - build(0).length) / branches));
  }
  if (shape === 'nested') {
    let value = `{name} ${word}`;
    for (let level = Math.floor((braces - 1) / 3); level > 0; level--) {
      value = `{c${level}, select, a {${value}} other {x}}`;
    }
    return toLength(`${value} ${word} `, length);
  }
  return toLength(`${`{name} ${word} `.repeat(braces)}`, length);
}

const SHAPES = [
  { source: worstValue('plural', 'others'), german: worstValue('plural', 'andere') },
  { source: worstValue('nested', 'thing'), german: worstValue('nested', 'Ding') },
  { source: worstValue('placeholders', 'item'), german: worstValue('placeholders', 'Stück') },
];

/** One value of each worst shape, its translation beside it: a source of three keys. */
export function worstValues(): { source: Record<string, string>; german: Record<string, string> } {
  return {
    source: { plural: SHAPES[0]!.source, nested: SHAPES[1]!.source, placeholders: SHAPES[2]!.source },
    german: { plural: SHAPES[0]!.german, nested: SHAPES[1]!.german, placeholders: SHAPES[2]!.german },
  };
}

/** As many values at the limits as fit in the body limit, the shapes taken in turn. */
export function hugeValuesDocuments(): LocaleDocuments {
  const perValue = maxValueLength + 32;
  const count = Math.floor((BODY_LIMIT_BYTES - 1024) / perValue);
  const source: Record<string, string> = {};
  const german: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const shape = SHAPES[i % SHAPES.length]!;
    source[`huge.value${i}`] = shape.source;
    german[`huge.value${i}`] = shape.german;
  }
  return { source: Buffer.from(JSON.stringify(source)), german: Buffer.from(JSON.stringify(german)) };
}

/**
 * As many keys as allowed (200,000) filling the body limit: nested sections, short texts with a
 * placeholder in one of four and an ICU plural in one of eight, padded to the limit.
 */
export function manyKeysDocuments(): LocaleDocuments {
  const sections = 1000;
  const perSection = Math.floor(maxKeys / sections);
  // `"keyNNN":"…",` is 12 bytes beside the text; a section's name and braces 20 more.
  const textLength = Math.floor((BODY_LIMIT_BYTES - 64 * 1024 - sections * 20) / maxKeys) - 12;
  const text = (key: number, german: boolean) => {
    const word = german ? 'Ding' : 'thing';
    if (key % 8 === 0) return pad(`{count, plural, one {# ${word}} other {# ${word}s}}`, textLength);
    return pad(key % 4 === 1 ? `${word} for {name}` : `${word} ${key}`, textLength);
  };
  const build = (german: boolean) => {
    const document: Record<string, Record<string, string>> = {};
    for (let s = 0; s < sections; s++) {
      const section: Record<string, string> = {};
      for (let k = 0; k < perSection; k++) section[`key${k}`] = text(k, german);
      document[`section${s}`] = section;
    }
    return Buffer.from(JSON.stringify(document));
  };
  return { source: build(false), german: build(true) };
}

/** `text` followed by dots up to `length` characters, never cut. */
function pad(text: string, length: number): string {
  return text.length >= length ? text : text + '.'.repeat(length - text.length);
}
