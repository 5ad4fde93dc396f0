import type { FlatEntries } from './diff.js';
import type { KeyRange } from './icu-messages.js';
import type { TargetKeys } from './plural-groups.js';

/**
 * The placeholder check used when translations are uploaded and when an AI model answers: a
 * translated value must use the same placeholders as its source value.
 *
 * What counts, as canonical tokens:
 * - `{name}` for an ICU argument (names of letters, digits, `_`, `.`, `$`, `-`), whatever its
 *   type and style: `{count}`, `{count, number}`, `{d, date, short}` and `{count, plural, ...}`
 *   are all `{count}`. A plural or select counts by its argument name only, not by its selectors
 *   (German has one/other where Polish has one/few/many/other, Japanese only other), and a
 *   translation may drop the plural altogether; placeholders inside the sub-messages count like
 *   any other. `#` is not a placeholder.
 * - `{{name}}` (i18next, Handlebars), its own kind, with surrounding spaces trimmed.
 * - printf: `%s`, `%d`, `%i`, `%u`, `%f`, `%x`, `%c`, `%p`, `%@`... and positional `%1$s`. Flags,
 *   width and precision are left out of the token, length modifiers are kept (`%ld` and `%d` take
 *   different arguments). `%%` is a percent sign, and so is `%` followed by a space ("50% off"),
 *   which C would read as a space flag but no translator means as one. Uppercase conversions
 *   other than `%X` (`%F`, `%E`, `%A`, `%C`, `%S`...) are text: they are rare in messages, and
 *   would otherwise turn URL escapes such as `%2F` and `%3A` into placeholders.
 * - tags: `<b>`, `</b>`, `<br/>` (also written `<br />`), `<0>` (react-i18next); by name and
 *   kind only, attributes may be translated. Placeholders inside attributes still count.
 *
 * Everything is compared as a set, except unnumbered printf conversions, which are counted:
 * `%s %s` takes two arguments, so a translation with one `%s` is missing one. Within a plural or
 * select the count is the largest of any one branch, since only one branch is ever shown and
 * languages have different numbers of branches. Their order is not checked.
 *
 * ICU apostrophe quoting: `''` is an apostrophe, and an apostrophe followed by `{`, `}`, `|` (or
 * `#` in a plural) quotes text up to the next lone apostrophe, so `'{name}'` is text but "don't"
 * is just an apostrophe. One exception: `{{` is never ICU syntax, so an apostrophe before it is
 * text ("Delete '{{name}}'?" in an i18next file has a placeholder). Quoted text holds no
 * placeholder of any kind.
 *
 * Malformed input never throws: an ICU argument that does not parse (unbalanced braces, a bad
 * name) is text, and scanning goes on just after its `{`, so placeholders within it are still
 * found. A broken plural in a translation thus loses its argument name and shows as a mismatch.
 * Arguments nested more than MAX_NESTING (16) deep are text too, which also bounds recursion.
 */

export type PlaceholderDifference = { missing: string[]; unexpected: string[] };
export type PlaceholderMismatch = { key: string } & PlaceholderDifference;

/** Placeholders of one text: tokens compared as a set, and counted unnumbered printf tokens. */
type Found = { set: Set<string>; counts: Map<string, number> };

type Scan = {
  text: string;
  /** Argument parsed (or failed, null) at a `{` position: a retry after a failure reuses it. */
  arguments: Map<number, ParsedArgument | null>;
};
type ParsedArgument = { end: number; found: Found };
/** Inside a sub-message of a plural or select. */
type SubMessage = { inPlural: boolean; depth: number };

const MAX_NESTING = 16;
const FAILED = -1;
const NAME = /[\p{L}\p{N}\p{M}_.$-]+/uy;
const SELECTOR = /[^\s{}]+/y;
const WHITESPACE = /\s*/y;
const OFFSET = /offset:\s*\d+/y;
// Width cannot start with 0 (that is a flag), so no two parts can match the same digits and a
// long run of digits costs linear time, not quadratic backtracking.
const PRINTF =
  /%(?:([1-9]\d*)\$)?[-+0#']*(?:[1-9]\d*|\*)?(?:\.(?:\d*|\*))?(hh|h|ll|l|L|q|j|z|t)?([diouxXefgcsp@])/y;
const TAG_NAME = /[A-Za-z0-9][\w:.-]*/y;
const SUB_MESSAGE_TYPES = new Set(['plural', 'selectordinal', 'select']);

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const APOSTROPHE = 0x27;
const PERCENT = 0x25;
const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;
const SLASH = 0x2f;
const HASH = 0x23;
const PIPE = 0x7c;
const COMMA = 0x2c;
const EQUALS = 0x3d;
const QUOTE = 0x22;

/** The placeholders of `text`, sorted by kind then name, unnumbered printf once per use. */
export function extractPlaceholders(text: string): string[] {
  if (!mayHavePlaceholders(text)) return [];
  const found = findPlaceholders(text);
  const tokens = [...found.set];
  for (const [token, count] of found.counts) {
    for (let i = 0; i < count; i++) tokens.push(token);
  }
  return tokens.sort(compareTokens);
}

/** What `translation` lacks and adds compared with `source`; undefined when they match. */
export function comparePlaceholders(source: string, translation: string): PlaceholderDifference | undefined {
  if (source === translation) return undefined;
  if (!mayHavePlaceholders(source) && !mayHavePlaceholders(translation)) return undefined;
  const expected = findPlaceholders(source);
  const actual = findPlaceholders(translation);
  const missing = difference(expected, actual);
  const unexpected = difference(actual, expected);
  if (missing.length === 0 && unexpected.length === 0) return undefined;
  return { missing, unexpected };
}

/**
 * What a form of an i18next plural group lacks and adds (DESIGN §11): it keeps the placeholders
 * that every source form shares, and may use any placeholder of any source form (`{{count}}` may
 * be left out only where the source leaves it out of one of its forms, English `One item`).
 */
export function comparePluralFormPlaceholders(
  sources: readonly string[],
  translation: string,
): PlaceholderDifference | undefined {
  if (sources.length === 1) return comparePlaceholders(sources[0]!, translation);
  if (!sources.some(mayHavePlaceholders) && !mayHavePlaceholders(translation)) return undefined;
  const found = sources.map(findPlaceholders);
  const shared = newFound();
  const allowed = newFound();
  for (const form of found) {
    for (const token of form.set) {
      allowed.set.add(token);
      if (found.every((other) => other.set.has(token))) shared.set.add(token);
    }
    for (const [token, count] of form.counts) {
      allowed.counts.set(token, Math.max(allowed.counts.get(token) ?? 0, count));
      const least = Math.min(...found.map((other) => other.counts.get(token) ?? 0));
      if (least > 0) shared.counts.set(token, least);
    }
  }
  const actual = findPlaceholders(translation);
  const missing = difference(shared, actual);
  const unexpected = difference(actual, allowed);
  if (missing.length === 0 && unexpected.length === 0) return undefined;
  return { missing, unexpected };
}

/**
 * Every key present in both whose translation's placeholders differ from the source's, in source
 * key order. With `target`, the target locale's keys are checked: a plural group's forms by the
 * rule of comparePluralFormPlaceholders.
 */
export function findPlaceholderMismatches(
  source: FlatEntries,
  translations: ReadonlyMap<string, string> | FlatEntries,
  target?: TargetKeys,
  range: KeyRange = { start: 0, end: Number.POSITIVE_INFINITY },
): PlaceholderMismatch[] {
  if (target && target.groups.length > 0) return findTargetMismatches(source, translations, target, range);
  const translationOf = translationLookup(translations);
  const mismatches: PlaceholderMismatch[] = [];
  const end = Math.min(range.end, source.keys.length);
  for (let i = range.start; i < end; i++) {
    const key = source.keys[i]!;
    const translation = translationOf(key, i);
    if (translation === undefined) continue;
    const difference = comparePlaceholders(source.values[i]!, translation);
    if (difference) mismatches.push({ key, ...difference });
  }
  return mismatches;
}

function findTargetMismatches(
  source: FlatEntries,
  translations: ReadonlyMap<string, string> | FlatEntries,
  target: TargetKeys,
  range: KeyRange,
): PlaceholderMismatch[] {
  const translationOf = translationLookup(translations);
  const mismatches: PlaceholderMismatch[] = [];
  const end = Math.min(range.end, target.entries.length);
  for (let index = range.start; index < end; index++) {
    const entry = target.entries[index]!;
    const translation = translationOf(entry.key, index);
    if (translation === undefined) continue;
    const values = entry.sources.map((at) => source.values[at]!);
    const difference = comparePluralFormPlaceholders(values, translation);
    if (difference) mismatches.push({ key: entry.key, ...difference });
  }
  return mismatches;
}

/**
 * The translation of the source's key at `index`. Translations given as entries are matched by
 * position while the keys line up (the usual case), through a Map only after that.
 */
export function translationLookup(
  translations: ReadonlyMap<string, string> | FlatEntries,
): (key: string, index: number) => string | undefined {
  if ('get' in translations) return (key) => translations.get(key);
  let byKey: Map<string, string> | undefined;
  return (key, index) => {
    // Keys are unique, so a key found at the same index is the one.
    if (translations.keys[index] === key) return translations.values[index];
    byKey ??= new Map(translations.keys.map((k, at) => [k, translations.values[at]!]));
    return byKey.get(key);
  };
}

/** The quick test that lets most values skip parsing: every placeholder has one of these. */
function mayHavePlaceholders(text: string): boolean {
  return text.includes('{') || text.includes('%') || text.includes('<');
}

function findPlaceholders(text: string): Found {
  const found = newFound();
  scanMessage({ text, arguments: new Map() }, 0, found, undefined);
  return found;
}

/**
 * Scans message text from `start`. At the top level (`sub` undefined) it reads to the end and
 * a `{` that starts no argument is text; in a sub-message it stops at the closing `}` and
 * returns its index, or FAILED if the sub-message does not parse.
 */
function scanMessage(scan: Scan, start: number, found: Found, sub: SubMessage | undefined): number {
  const { text } = scan;
  let i = start;
  while (i < text.length) {
    switch (text.charCodeAt(i)) {
      case APOSTROPHE:
        i = skipApostrophe(text, i, sub?.inPlural ?? false);
        break;
      case OPEN_BRACE: {
        const end = readDoubleBrace(text, i, found);
        if (end !== FAILED) {
          i = end;
          break;
        }
        const argument = parseArgument(scan, i, (sub?.depth ?? 0) + 1);
        if (argument) {
          addAll(found, argument.found);
          i = argument.end;
        } else if (sub) {
          return FAILED;
        } else {
          i++;
        }
        break;
      }
      case CLOSE_BRACE:
        if (sub) return i;
        i++;
        break;
      case PERCENT:
        i = readPrintf(text, i, found);
        break;
      case LESS_THAN:
        i = readTag(text, i, found);
        break;
      default:
        i++;
    }
  }
  return sub ? FAILED : i;
}

/** The index after the apostrophe, or after the text it quotes. */
function skipApostrophe(text: string, at: number, inPlural: boolean): number {
  const next = text.charCodeAt(at + 1);
  if (next === APOSTROPHE) return at + 2;
  const quotes =
    (next === OPEN_BRACE && text.charCodeAt(at + 2) !== OPEN_BRACE) ||
    next === CLOSE_BRACE ||
    next === PIPE ||
    (next === HASH && inPlural);
  if (!quotes) return at + 1;
  let i = at + 1;
  for (;;) {
    const close = text.indexOf("'", i);
    // ICU: an apostrophe left open quotes the rest of the message.
    if (close === -1) return text.length;
    if (text.charCodeAt(close + 1) !== APOSTROPHE) return close + 1;
    i = close + 2;
  }
}

/** `{{name}}` at `at`: adds it and returns the index after it, or FAILED. */
function readDoubleBrace(text: string, at: number, found: Found): number {
  if (text.charCodeAt(at + 1) !== OPEN_BRACE) return FAILED;
  let i = at + 2;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE) return FAILED;
    if (c === CLOSE_BRACE) break;
    i++;
  }
  if (text.charCodeAt(i + 1) !== CLOSE_BRACE) return FAILED;
  const name = text.slice(at + 2, i).trim();
  if (name === '') return FAILED;
  found.set.add(`{{${name}}}`);
  return i + 2;
}

/** The ICU argument whose `{` is at `open`, or undefined when there is none. */
function parseArgument(scan: Scan, open: number, depth: number): ParsedArgument | undefined {
  const known = scan.arguments.get(open);
  if (known !== undefined) return known ?? undefined;
  const argument = depth > MAX_NESTING ? undefined : readArgument(scan, open, depth);
  scan.arguments.set(open, argument ?? null);
  return argument;
}

function readArgument(scan: Scan, open: number, depth: number): ParsedArgument | undefined {
  const { text } = scan;
  let i = skipWhitespace(text, open + 1);
  const nameEnd = matchEnd(NAME, text, i);
  if (nameEnd === FAILED) return undefined;
  const found = newFound();
  found.set.add(`{${text.slice(i, nameEnd)}}`);
  i = skipWhitespace(text, nameEnd);
  if (text.charCodeAt(i) === CLOSE_BRACE) return { end: i + 1, found };
  if (text.charCodeAt(i) !== COMMA) return undefined;

  i = skipWhitespace(text, i + 1);
  const typeEnd = matchEnd(NAME, text, i);
  if (typeEnd === FAILED) return undefined;
  const type = text.slice(i, typeEnd);
  i = skipWhitespace(text, typeEnd);
  if (text.charCodeAt(i) === CLOSE_BRACE) return { end: i + 1, found };
  if (text.charCodeAt(i) !== COMMA) return undefined;

  const end = SUB_MESSAGE_TYPES.has(type)
    ? readOptions(scan, i + 1, found, { inPlural: type !== 'select', depth })
    : skipStyle(text, i + 1);
  return end === FAILED ? undefined : { end, found };
}

/**
 * The `selector {sub-message}` pairs of a plural or select, up to and including its closing
 * brace. Branches are alternatives: sets are joined, counts take the largest branch.
 */
function readOptions(scan: Scan, start: number, found: Found, sub: SubMessage): number {
  const { text } = scan;
  let i = skipWhitespace(text, start);
  if (sub.inPlural) {
    const offsetEnd = matchEnd(OFFSET, text, i);
    if (offsetEnd !== FAILED) i = skipWhitespace(text, offsetEnd);
  }
  for (;;) {
    if (text.charCodeAt(i) === CLOSE_BRACE) return i + 1;
    const selectorEnd = matchEnd(SELECTOR, text, i);
    if (selectorEnd === FAILED) return FAILED;
    i = skipWhitespace(text, selectorEnd);
    if (text.charCodeAt(i) !== OPEN_BRACE) return FAILED;
    const branch = newFound();
    const close = scanMessage(scan, i + 1, branch, sub);
    if (close === FAILED) return FAILED;
    for (const token of branch.set) found.set.add(token);
    for (const [token, count] of branch.counts) {
      found.counts.set(token, Math.max(count, found.counts.get(token) ?? 0));
    }
    i = skipWhitespace(text, close + 1);
  }
}

/**
 * The style of a simple argument (`short`, `::currency/EUR`, `'{'#'}'`), up to and including
 * the argument's closing brace; any apostrophe quotes, as ICU reads a style. An unquoted `{`
 * fails: nested braces only occur in the deprecated ChoiceFormat style, which is then read as
 * text (its inner arguments are still found), and each attempt stops at the next brace, so
 * rescanning after failures stays linear.
 */
function skipStyle(text: string, start: number): number {
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === APOSTROPHE) {
      i = text.indexOf("'", i + 1);
      if (i === -1) return FAILED;
    } else if (c === OPEN_BRACE) {
      return FAILED;
    } else if (c === CLOSE_BRACE) {
      return i + 1;
    }
  }
  return FAILED;
}

function readPrintf(text: string, at: number, found: Found): number {
  if (text.charCodeAt(at + 1) === PERCENT) return at + 2;
  PRINTF.lastIndex = at;
  const match = PRINTF.exec(text);
  if (!match) return at + 1;
  const [all, position, length = '', conversion] = match;
  if (position === undefined) {
    const token = `%${length}${conversion}`;
    found.counts.set(token, (found.counts.get(token) ?? 0) + 1);
  } else {
    found.set.add(`%${Number(position)}$${length}${conversion}`);
  }
  return at + all.length;
}

/**
 * A tag at `at`: `<` then a letter or digit, or `</` then one, up to the next `>` outside a
 * quoted attribute value. Returns where scanning goes on: after the tag's name, so that
 * placeholders in attribute values are found too. `a < b` and `x<y` are text.
 */
function readTag(text: string, at: number, found: Found): number {
  const closing = text.charCodeAt(at + 1) === SLASH;
  const nameStart = closing ? at + 2 : at + 1;
  const nameEnd = matchEnd(TAG_NAME, text, nameStart);
  if (nameEnd === FAILED) return at + 1;
  const after = text.charCodeAt(nameEnd);
  if (after !== GREATER_THAN && after !== SLASH && !isSpace(after)) return at + 1;
  let last = 0;
  for (let i = nameEnd; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === GREATER_THAN) {
      const name = text.slice(nameStart, nameEnd);
      found.set.add(closing ? `</${name}>` : last === SLASH ? `<${name}/>` : `<${name}>`);
      return nameEnd;
    }
    if (c === LESS_THAN) return at + 1;
    if ((c === QUOTE || c === APOSTROPHE) && last === EQUALS) {
      i = text.indexOf(text[i]!, i + 1);
      if (i === -1) return at + 1;
    }
    if (!isSpace(c)) last = c;
  }
  return at + 1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function skipWhitespace(text: string, at: number): number {
  WHITESPACE.lastIndex = at;
  WHITESPACE.test(text);
  return WHITESPACE.lastIndex;
}

/** The end of a non-empty match of sticky `pattern` at `at`, or FAILED. */
function matchEnd(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : FAILED;
}

function newFound(): Found {
  return { set: new Set(), counts: new Map() };
}

function addAll(into: Found, from: Found): void {
  for (const token of from.set) into.set.add(token);
  for (const [token, count] of from.counts) into.counts.set(token, (into.counts.get(token) ?? 0) + count);
}

/** Tokens of `a` that `b` lacks, counted ones as often as `a` has more of them; sorted. */
function difference(a: Found, b: Found): string[] {
  const tokens: string[] = [];
  for (const token of a.set) if (!b.set.has(token)) tokens.push(token);
  for (const [token, count] of a.counts) {
    for (let extra = count - (b.counts.get(token) ?? 0); extra > 0; extra--) tokens.push(token);
  }
  return tokens.sort(compareTokens);
}

/** `{x}`, then `{{x}}`, then printf (positional by number), then tags by name: open, close, self-closing. */
function compareTokens(a: string, b: string): number {
  const ka = sortKey(a);
  const kb = sortKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function sortKey(token: string): string {
  if (token.startsWith('{{')) return `1${token.slice(2, -2)}`;
  if (token.startsWith('{')) return `0${token.slice(1, -1)}`;
  if (token.startsWith('%')) {
    const position = /^%(\d+)\$/.exec(token);
    return position ? `3${position[1]!.padStart(10, '0')}${token}` : `2${token}`;
  }
  if (token.startsWith('</')) return `4${token.slice(2, -1)}\u00001`;
  if (token.endsWith('/>')) return `4${token.slice(1, -2)}\u00002`;
  return `4${token.slice(1, -1)}\u00000`;
}
