/** A catalog's strings read for one locale: units and plural variations as values and ICU messages. */
import { TYPE, parse as parseIcu } from '@formatjs/icu-messageformat-parser';
import { PLURAL_CATEGORIES, type PluralCategory } from '@tolk/locale-file';
import type { ReadInput } from '../format.js';
import { keyOfName, nameProblem } from '../key-names.js';
import { icuBranchText, icuPluralMessage, type Interpolation } from '../plural-message.js';
import {
  type Catalog,
  type JsonEntry,
  type JsonObject,
  type JsonValue,
  field,
  finding,
  load,
  objectField,
  spelling,
  stringField,
} from './catalog.js';

/** Apple's placeholders are printf's, no braces: nothing of the text is an ICU argument. */
export const APPLE_INTERPOLATION: Interpolation = { prefix: '\u0000' };
/** `%#@name@` in a format string: a substitution of the localization. */
const SUBSTITUTION = /%#@([^@\s]+)@/g;
/** The argument of the ICU plural a plural variation is read as. */
const PLURAL_ARGUMENT = 'count';

/** The key of the locale document for a catalog key (key-names.ts); undefined, said, when it can be none. */
function documentKey(catalog: Catalog, entry: JsonEntry): string | undefined {
  const problem = nameProblem(entry.key);
  if (problem) {
    finding(
      catalog,
      null,
      'format',
      `the key ${JSON.stringify(entry.key)} cannot be a key: it ${problem}; left out`,
      entry.offset,
    );
    return undefined;
  }
  return keyOfName(entry.key);
}

/** A unit's value, when it is one: for a target, a unit in state `new` is none yet. */
export function unitValue(unit: JsonValue | undefined, source: boolean): string | undefined {
  const value = stringField(unit, 'value');
  if (value === undefined) return undefined;
  if (!source && stringField(unit, 'state') === 'new') return undefined;
  return value;
}

/** The branches of a localization's plural variations, in CLDR order; undefined when it has none. */
function pluralVariations(
  localization: JsonValue,
  source: boolean,
  noOther?: (plural: JsonValue) => void,
): (readonly [PluralCategory, string])[] | undefined {
  const variations = field(localization, 'variations');
  if (variations?.kind !== 'object' || variations.entries.length !== 1) return undefined;
  const plural = field(variations, 'plural');
  if (plural?.kind !== 'object') return undefined;
  const branches: (readonly [PluralCategory, string])[] = [];
  for (const category of PLURAL_CATEGORIES) {
    const form = field(plural, category);
    if (form === undefined) continue;
    const text = unitValue(field(form, 'stringUnit'), source);
    if (text === undefined) return undefined;
    branches.push([category, text]);
  }
  // A form that is no CLDR category (a device name, a typo): not a plural read here.
  if (plural.entries.some((entry) => !(PLURAL_CATEGORIES as readonly string[]).includes(entry.key))) {
    return undefined;
  }
  if (!branches.some(([category]) => category === 'other')) {
    // A source's plural is read only whole; a person's translation keeps the forms it has.
    if (source || branches.length === 0 || !noOther) return undefined;
    noOther(plural);
  }
  return branches;
}

/** The message of a localization (see the module's comment), or undefined. */
export function messageOf(
  localization: JsonValue | undefined,
  source: boolean,
  noOther?: (plural: JsonValue) => void,
): string | undefined {
  if (localization?.kind !== 'object') return undefined;
  const substitutions = field(localization, 'substitutions');
  if (substitutions !== undefined) {
    const format = unitValue(field(localization, 'stringUnit'), source);
    if (format === undefined || field(localization, 'variations') !== undefined) return undefined;
    return substitutedMessage(format, substitutions, source, noOther);
  }
  if (field(localization, 'variations') !== undefined) {
    const branches = pluralVariations(localization, source, noOther);
    if (!branches) return undefined;
    const texts = new Set(branches.map(([, text]) => text));
    if (!source && texts.size === 1) {
      const [text] = texts as Set<string>;
      if (holdsPlural(text!)) return text;
    }
    return icuPluralMessage(PLURAL_ARGUMENT, branches, APPLE_INTERPOLATION);
  }
  return unitValue(field(localization, 'stringUnit'), source);
}

/**
 * A format string with substitutions (`%#@photos@ in %#@albums@`) as one ICU message: each
 * `%#@name@` the substitution's plural on `name`, the text around it quoted for ICU where needed
 * (as the `stringsdict` format reads its format key). Undefined when a substitution it names is
 * not a plural read here.
 */
function substitutedMessage(
  format: string,
  substitutions: JsonValue,
  source: boolean,
  noOther?: (plural: JsonValue) => void,
): string | undefined {
  let out = '';
  let at = 0;
  for (const match of format.matchAll(SUBSTITUTION)) {
    const substitution = field(substitutions, match[1]!);
    const branches = substitution && pluralVariations(substitution, source, noOther);
    if (!branches) return undefined;
    out += icuBranchText(format.slice(at, match.index), APPLE_INTERPOLATION);
    out += icuPluralMessage(match[1]!, branches, APPLE_INTERPOLATION);
    at = match.index + match[0].length;
  }
  return out + icuBranchText(format.slice(at), APPLE_INTERPOLATION);
}

function holdsPlural(text: string): boolean {
  try {
    return parseIcu(text, { ignoreTag: true }).some((element) => element.type === TYPE.plural);
  } catch {
    return false;
  }
}

export type SourceString = {
  entry: JsonEntry;
  key: string;
  message: string;
  /** How the source localization holds it: a unit, plural variations, or substitutions. */
  shape: 'text' | 'plural' | 'substitutions';
  /** The source's substitutions, by name (`substitutions`). */
  substitutions: JsonObject | undefined;
  comment: string | undefined;
};

/** The strings of the catalog that are translated, with their source message. */
export function sourceStrings(catalog: Catalog): SourceString[] {
  const strings: SourceString[] = [];
  for (const entry of catalog.strings.entries) {
    if (entry.key === '' || entry.value.kind !== 'object') continue;
    const shouldTranslate = field(entry.value, 'shouldTranslate');
    if (shouldTranslate?.kind === 'scalar' && shouldTranslate.value === false) continue;
    const localization = field(field(entry.value, 'localizations'), catalog.sourceLanguage);
    const message = localization === undefined ? entry.key : messageOf(localization, true);
    if (message === undefined) continue;
    const key = documentKey(catalog, entry);
    if (key === undefined) continue;
    strings.push({
      entry,
      key,
      message,
      shape:
        field(localization, 'substitutions') !== undefined
          ? 'substitutions'
          : field(localization, 'variations') !== undefined
            ? 'plural'
            : 'text',
      substitutions: objectField(localization, 'substitutions'),
      comment: stringField(entry.value, 'comment'),
    });
  }
  return strings;
}

/** A property of a plain object, `__proto__` included. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

export function readXcstrings(input: ReadInput): Record<string, unknown> {
  const catalog = load(input.bytes, input.path, input);
  const document: Record<string, unknown> = {};
  const spelled = spelling.spellLocale(input.locale);
  const source = spelling.readLocale(catalog.sourceLanguage) === input.locale;
  for (const string of sourceStrings(catalog)) {
    if (source) {
      define(document, string.key, string.message);
      if (string.comment?.trim()) define(document, `@${string.key}`, { description: string.comment.trim() });
      continue;
    }
    const message = messageOf(field(field(string.entry.value, 'localizations'), spelled), false, (plural) =>
      finding(
        catalog,
        string.key,
        'plural',
        `the ${spelled} plural of ${JSON.stringify(string.entry.key)} has no "other", which every language uses; its forms are kept`,
        plural.offset,
        'error',
      ),
    );
    if (message !== undefined) define(document, string.key, message);
  }
  return document;
}
