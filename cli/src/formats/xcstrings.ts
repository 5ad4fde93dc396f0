/**
 * `xcstrings`: an Xcode String Catalog (`Localizable.xcstrings`), DESIGN §12. One file holds every
 * locale of the app: the source language's strings and each target's translations, so the file
 * set's path has no `{locale}` (`oneFileForAllLocales`); reading it for a locale gives that
 * locale's strings, writing a target puts that locale's into the same file.
 *
 * - Parsed with `jsonc-parser` (strict: no comments, no trailing commas) into a tree that keeps the
 *   order of every object and the text of every key and value as the file spells it, so a catalog
 *   Xcode wrote comes back byte for byte (Xcode's layout: two spaces, `"key" : value`, an empty
 *   object as `{` blank line `}`, no final newline; whatever follows the closing brace is kept,
 *   and `\r\n` line ends a checkout gave it). A file laid out otherwise is written in Xcode's
 *   layout, as Xcode itself would save it.
 * - `sourceLanguage` is the locale the file's source strings are in (`sourceLocaleOf`): a project
 *   of another source locale is refused rather than read from the wrong localizations.
 * - `version` must be one Xcode writes (KNOWN_VERSIONS); any other is refused naming it.
 * - Keys are the catalog's keys, made server keys by the rule every free-text format shares
 *   (key-names.ts: `Saved.` keeps its look with U+2024, `items_one` is no i18next form); a key
 *   that rule refuses is refused with its place. The empty key `""` (Xcode
 *   extracts it from `Text("")`) has nothing to translate: it is left out and kept as it is.
 * - The source language's value: its `stringUnit` value, or its `variations.plural` as one ICU
 *   plural message on `count` (each branch's text as it is, `%lld` and `%@` kept for the
 *   placeholder checks), or a format string with `substitutions` (`%#@photos@ in %#@albums@`) as
 *   its text with each `%#@name@` the ICU plural on `name` of that substitution (as `stringsdict`
 *   reads its format key); a key with no source localization is its own text (Xcode's default).
 *   `comment` is the key's description. `extractionState` does not matter: a `stale` string (no
 *   longer found in the code) is still in the catalog and built into the app, so it is translated.
 * - Left out of what is translated, and kept as they are: keys with `shouldTranslate: false`
 *   (no localization is ever written for them), and keys whose source localization is of a shape
 *   not read here (device variations, a substitution that is no plural).
 * - A target's value: its `stringUnit` value (state `translated` or `needs_review`: a value the
 *   user marked for review is still a value), or its plural variations; a unit in state `new`
 *   is no translation yet. A plural whose branches all hold the same text, itself an ICU plural,
 *   reads as that text: a message that is not one plural (text around its plural) is written as
 *   every category's text, as it is.
 * - Findings, each at its place, the rest of the catalog read (DESIGN §15): a key given twice in
 *   one object (the last is kept, as Foundation's JSON reader keeps it), a string that is not an
 *   object or whose key cannot be a key (left out, and kept as it is), a target's plural without
 *   `other` (its forms are kept: an error). Refused (the file does not parse): JSON that does not
 *   parse or is nested deeper than 32 levels, a version Tolk does not know, no `sourceLanguage`
 *   or `strings`.
 * - Writing a target changes only that locale, and only the keys whose value differs from what
 *   the file holds: such a localization gets `stringUnit` state `translated`, or for a plural key
 *   `variations.plural` with the TARGET's CLDR categories (from `pluralBranches`), or for a key
 *   with substitutions the format string and each substitution's plural so; other fields of
 *   the localization, every other locale and every other field stay as they are. An unchanged
 *   value keeps its unit untouched (`needs_review` stays), and so does each plural form whose
 *   text stays when another form of the key changes. A key with no value keeps what the
 *   file has. The catalog is its own source: a key gone from the source is gone from the file
 *   with every localization of it, so no entry is ever removed (WriteInput.synced has nothing
 *   to decide). A new locale is placed among the others in Xcode's order (case-insensitive,
 *   numbers by value, `Intl.Collator`).
 */
import { TYPE, parse as parseIcu, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';
import {
  DEFAULT_SOURCE_LIMITS,
  PLURAL_CATEGORIES,
  pluralCategories,
  type PluralCategory,
} from '@tolk/locale-file';
import { printParseErrorCode, type Node } from 'jsonc-parser';
import { bcp47Spelling } from './bcp47-spelling.js';
import {
  addFinding,
  FormatError,
  type FileFinding,
  type LocaleFormat,
  type ReadInput,
  type WriteInput,
} from './format.js';
import { checkJsonDepth } from './json-document.js';
import { jsonTree, STRICT_JSON } from './json-tree.js';
import { keyOfName, nameProblem } from './key-names.js';
import {
  icuBranchText,
  icuPluralMessage,
  pluralBranches,
  singlePlural,
  type Interpolation,
} from './plural-message.js';
import { decodeUtf8 } from './utf8.js';

/** The `version` values of String Catalogs Xcode writes (15 and later: 1.0; 26: 1.1). */
export const KNOWN_VERSIONS = ['1.0', '1.1'] as const;

const spelling = bcp47Spelling('-');
const BOM = '\uFEFF';
/** Apple's placeholders are printf's, no braces: nothing of the text is an ICU argument. */
const APPLE_INTERPOLATION: Interpolation = { prefix: '\u0000' };
/** `%#@name@` in a format string: a substitution of the localization. */
const SUBSTITUTION = /%#@([^@\s]+)@/g;
/** The argument of the ICU plural a plural variation is read as. */
const PLURAL_ARGUMENT = 'count';
/** Xcode's order of keys: case-insensitive, numbers by value, lower case first on a tie. */
const COLLATOR = new Intl.Collator('en', { numeric: true });

export const xcstringsFormat: LocaleFormat = {
  name: 'xcstrings',
  extensions: ['.xcstrings'],
  oneFileForAllLocales: true,
  /** `pt-BR`, `zh-Hans`: the catalog's localizations are Apple's BCP 47 with `-`. */
  spellLocale: spelling.spellLocale,
  readLocale: spelling.readLocale,
  sourceLocaleOf: (bytes, path) => {
    const { sourceLanguage } = load(bytes, path);
    return spelling.readLocale(sourceLanguage) ?? sourceLanguage;
  },
  read: readXcstrings,
  write: writeXcstrings,
};

/** A JSON value as the file holds it: objects keep their order, scalars their spelling. */
type JsonValue =
  | { kind: 'scalar'; raw: string; value: string | number | boolean | null; offset: number }
  | { kind: 'object'; entries: JsonEntry[]; offset: number }
  | { kind: 'array'; items: JsonValue[]; offset: number };
type JsonEntry = { key: string; rawKey: string; value: JsonValue; offset: number };
type JsonObject = Extract<JsonValue, { kind: 'object' }>;

type Catalog = {
  text: string;
  path: string;
  bom: boolean;
  /** What follows the root's closing brace (Xcode: nothing). */
  trailing: string;
  root: JsonObject;
  sourceLanguage: string;
  strings: JsonObject;
  /** Where findings go when the catalog is read for a locale (not when a target is written). */
  report: Pick<ReadInput, 'path' | 'findings'> | undefined;
};

function finding(
  catalog: Pick<Catalog, 'text' | 'report'>,
  key: string | null,
  kind: FileFinding['kind'],
  message: string,
  offset: number,
  severity: FileFinding['severity'] = 'warning',
): void {
  if (catalog.report)
    addFinding(catalog.report, { key, kind, severity, message, ...positionOf(catalog.text, offset) });
}

function positionOf(text: string, offset: number) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function fail(catalog: { text: string; path: string }, reason: string, offset?: number): never {
  throw new FormatError(
    catalog.path,
    reason,
    offset === undefined ? undefined : positionOf(catalog.text, offset),
  );
}

type Reading = { text: string; path: string; report: Catalog['report'] };

/** `role`: the root (whose `strings` are the catalog's), the catalog's strings, or any other value. */
function valueOfNode(
  node: Node,
  text: string,
  file: Reading,
  role: 'root' | 'strings' | 'other' = 'other',
): JsonValue {
  const inStrings = role === 'strings';
  if (node.type === 'object') {
    const entries: JsonEntry[] = [];
    const seen = new Map<string, number>();
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (!keyNode || !valueNode) fail(file, 'a property has no value', property.offset);
      const key = keyNode.value as string;
      const first = seen.get(key);
      if (first !== undefined) {
        finding(
          file,
          inStrings && !nameProblem(key) ? keyOfName(key) : null,
          'duplicate',
          `the key ${JSON.stringify(key)} is given twice in one object (first on line ${positionOf(text, first).line}); the last is kept, as Foundation's JSON reader keeps it`,
          keyNode.offset,
        );
        entries.splice(
          entries.findIndex((entry) => entry.key === key),
          1,
        );
      }
      seen.set(key, keyNode.offset);
      entries.push({
        key,
        rawKey: text.slice(keyNode.offset, keyNode.offset + keyNode.length),
        value: valueOfNode(valueNode, text, file, role === 'root' && key === 'strings' ? 'strings' : 'other'),
        offset: keyNode.offset,
      });
    }
    return { kind: 'object', entries, offset: node.offset };
  }
  if (node.type === 'array') {
    return {
      kind: 'array',
      items: (node.children ?? []).map((child) => valueOfNode(child, text, file)),
      offset: node.offset,
    };
  }
  return {
    kind: 'scalar',
    raw: text.slice(node.offset, node.offset + node.length),
    value: node.value as string | number | boolean | null,
    offset: node.offset,
  };
}

function load(bytes: Buffer, path: string, report?: Catalog['report']): Catalog {
  let text = decodeUtf8(bytes, path, 'save it as UTF-8');
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(BOM.length);
  checkJsonDepth(text, path, DEFAULT_SOURCE_LIMITS.maxDepth);
  const file: Reading = { text, path, report };
  const { tree, errors } = jsonTree(text, STRICT_JSON);
  if (errors.length > 0) {
    const [first] = errors;
    fail(file, `is not JSON (${printParseErrorCode(first!.error)})`, first!.offset);
  }
  if (!tree || tree.type !== 'object') fail(file, 'is not a String Catalog: its JSON is not an object', 0);
  const root = valueOfNode(tree, text, file, 'root') as JsonObject;
  const version = field(root, 'version');
  const supported = KNOWN_VERSIONS.join(', ');
  if (version?.kind !== 'scalar' || typeof version.value !== 'string') {
    fail(file, `is not a String Catalog Tolk knows: it has no "version" (supported: ${supported})`, 0);
  }
  if (!(KNOWN_VERSIONS as readonly string[]).includes(version.value)) {
    fail(
      file,
      `is a String Catalog of version ${JSON.stringify(version.value)}, which Tolk does not know (supported: ${supported}); ` +
        'nothing was read from it',
      version.offset,
    );
  }
  const sourceLanguage = field(root, 'sourceLanguage');
  if (sourceLanguage?.kind !== 'scalar' || typeof sourceLanguage.value !== 'string') {
    fail(file, 'is not a String Catalog: "sourceLanguage" (a string such as "en") is missing', 0);
  }
  const strings = field(root, 'strings');
  if (strings?.kind !== 'object') fail(file, 'is not a String Catalog: "strings" (an object) is missing', 0);
  for (const entry of strings.entries) {
    if (entry.value.kind !== 'object') {
      finding(
        file,
        null,
        'format',
        `the string ${JSON.stringify(entry.key)} is not an object; left out`,
        entry.offset,
      );
    }
  }
  const end = tree.offset + tree.length;
  return {
    text,
    path,
    bom,
    trailing: text.slice(end),
    root,
    sourceLanguage: sourceLanguage.value,
    strings,
    report,
  };
}

function field(object: JsonValue | undefined, key: string): JsonValue | undefined {
  if (object?.kind !== 'object') return undefined;
  return object.entries.find((entry) => entry.key === key)?.value;
}

function objectField(object: JsonValue | undefined, key: string): JsonObject | undefined {
  const value = field(object, key);
  return value?.kind === 'object' ? value : undefined;
}

function stringField(object: JsonValue | undefined, key: string): string | undefined {
  const value = field(object, key);
  return value?.kind === 'scalar' && typeof value.value === 'string' ? value.value : undefined;
}

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
function unitValue(unit: JsonValue | undefined, source: boolean): string | undefined {
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
function messageOf(
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

type SourceString = {
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
function sourceStrings(catalog: Catalog): SourceString[] {
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

function readXcstrings(input: ReadInput): Record<string, unknown> {
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

// Building and writing the tree.

const scalar = (value: string): JsonValue => ({
  kind: 'scalar',
  raw: JSON.stringify(value),
  value,
  offset: -1,
});
const object = (entries: [string, JsonValue][]): JsonObject => ({
  kind: 'object',
  entries: entries.map(([key, value]) => ({ key, rawKey: JSON.stringify(key), value, offset: -1 })),
  offset: -1,
});

function compareKeys(a: string, b: string): number {
  return COLLATOR.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Sets `key` of `target`: in its place when it is there, else where Xcode's order puts it. */
function setField(target: JsonObject, key: string, value: JsonValue): void {
  const existing = target.entries.find((entry) => entry.key === key);
  if (existing) {
    existing.value = value;
    return;
  }
  const at = target.entries.findIndex((entry) => compareKeys(entry.key, key) > 0);
  const entry: JsonEntry = { key, rawKey: JSON.stringify(key), value, offset: -1 };
  if (at === -1) target.entries.push(entry);
  else target.entries.splice(at, 0, entry);
}

const unit = (value: string) =>
  object([
    ['state', scalar('translated')],
    ['value', scalar(value)],
  ]);

/**
 * Whether a target's localization may be replaced by a value: not one of a shape this format does
 * not read (device variations, a substitution that is no plural), which the user made in Xcode.
 */
function replaceable(localization: JsonValue | undefined): boolean {
  if (localization === undefined) return true;
  if (localization.kind !== 'object') return false;
  const onlyPlural = (holder: JsonValue) => {
    const variations = field(holder, 'variations');
    return (
      variations === undefined ||
      (variations.kind === 'object' && variations.entries.every((entry) => entry.key === 'plural'))
    );
  };
  const substitutions = field(localization, 'substitutions');
  if (substitutions !== undefined) {
    if (substitutions.kind !== 'object') return false;
    if (
      !substitutions.entries.every((entry) => field(entry.value, 'variations') && onlyPlural(entry.value))
    ) {
      return false;
    }
  }
  return onlyPlural(localization);
}

/** The target's localization of a string for `message`, keeping the fields it had beyond its value. */
function targetLocalization(
  previous: JsonValue | undefined,
  string: SourceString,
  message: string,
  categories: readonly PluralCategory[],
): JsonObject {
  const kept =
    previous?.kind === 'object'
      ? previous.entries.filter((entry) => !['stringUnit', 'variations', 'substitutions'].includes(entry.key))
      : [];
  const localization: JsonObject = { kind: 'object', entries: [...kept], offset: -1 };
  if (string.shape === 'text') {
    setField(localization, 'stringUnit', unit(message));
    return localization;
  }
  if (string.shape === 'substitutions') {
    const previousSubstitutions = objectField(previous, 'substitutions');
    const { format, substitutions } = substitutedLocalization(
      message,
      string.substitutions!,
      previousSubstitutions,
      categories,
    );
    setField(localization, 'stringUnit', unit(format));
    if (substitutions.entries.length > 0) setField(localization, 'substitutions', substitutions);
    return localization;
  }
  // A message that is not one plural (text around it) is every category's text as it is, so that
  // it reads back as itself.
  const branches = singlePlural(message)
    ? [...pluralBranches(message, categories, APPLE_INTERPOLATION)]
    : categories.map((category) => [category, message] as const);
  setField(
    localization,
    'variations',
    pluralVariationsOf(branches, objectField(objectField(previous, 'variations'), 'plural')),
  );
  return localization;
}

/**
 * `variations.plural` of the branches, in Xcode's order of categories. A form whose text the
 * previous plural already holds keeps its unit as it is (a `needs_review` stays).
 */
function pluralVariationsOf(
  branches: readonly (readonly [PluralCategory, string])[],
  previous?: JsonObject,
): JsonObject {
  const sorted = [...branches].sort(([a], [b]) => compareKeys(a, b));
  const plural = object(
    sorted.map(([category, text]) => {
      const form = field(previous, category);
      const same = unitValue(objectField(form, 'stringUnit'), false) === text;
      return [category, same ? form! : object([['stringUnit', unit(text)]])];
    }),
  );
  return object([['plural', plural]]);
}

/**
 * A message of a key whose source has substitutions, as the target's format string and
 * substitutions: each ICU plural on a substitution's name is `%#@name@` and that substitution
 * with the target's categories, its other fields (`argNum`, `formatSpecifier`) the target's own
 * when it had the substitution, else the source's. A message that is no ICU is the format string.
 */
function substitutedLocalization(
  message: string,
  sourceSubstitutions: JsonObject,
  previousSubstitutions: JsonObject | undefined,
  categories: readonly PluralCategory[],
): { format: string; substitutions: JsonObject } {
  const substitutions: JsonObject = { kind: 'object', entries: [], offset: -1 };
  let elements: MessageFormatElement[];
  try {
    elements = parseIcu(message, { ignoreTag: true });
  } catch {
    return { format: message, substitutions };
  }
  let format = '';
  for (const element of elements) {
    const source = element.type === TYPE.plural ? objectField(sourceSubstitutions, element.value) : undefined;
    if (element.type === TYPE.literal) format += element.value;
    else if (element.type === TYPE.plural && source) {
      format += `%#@${element.value}@`;
      const like = objectField(previousSubstitutions, element.value) ?? source;
      const substitution: JsonObject = {
        kind: 'object',
        entries: like.entries.filter((entry) => entry.key !== 'variations'),
        offset: -1,
      };
      const branches = [...pluralBranches(printAST([element]), categories, APPLE_INTERPOLATION)];
      const previousPlural = objectField(
        objectField(objectField(previousSubstitutions, element.value), 'variations'),
        'plural',
      );
      setField(substitution, 'variations', pluralVariationsOf(branches, previousPlural));
      setField(substitutions, element.value, substitution);
    } else format += printAST([element]);
  }
  return { format, substitutions };
}

function writeXcstrings(input: WriteInput): Buffer {
  // The file as it is now (it holds every locale): the one to change.
  const catalog = load(input.existing ?? input.source, '(catalog)');
  const spelled = spelling.spellLocale(input.locale);
  if (spelling.readLocale(catalog.sourceLanguage) !== input.locale) {
    const categories = pluralCategories(input.locale);
    for (const string of sourceStrings(catalog)) {
      const message = input.valueOf(string.key);
      if (message === undefined) continue;
      let localizations = field(string.entry.value, 'localizations');
      const previous = field(localizations, spelled);
      if (messageOf(previous, false) === message || !replaceable(previous)) continue;
      if (localizations?.kind !== 'object') {
        localizations = { kind: 'object', entries: [], offset: -1 };
        setField(string.entry.value as JsonObject, 'localizations', localizations);
      }
      setField(localizations, spelled, targetLocalization(previous, string, message, categories));
    }
  }
  // Xcode writes `\n`; a checkout that turned it into `\r\n` keeps its line ends.
  let body = serialize(catalog.root, '');
  if (catalog.text.includes('\r\n')) body = body.replaceAll('\n', '\r\n');
  const text = (catalog.bom ? BOM : '') + body + catalog.trailing;
  return Buffer.from(text, 'utf8');
}

/** A value in Xcode's layout: two spaces, `"key" : value`, an empty object as `{` blank line `}`. */
function serialize(value: JsonValue, indent: string): string {
  if (value.kind === 'scalar') return value.raw;
  const inner = `${indent}  `;
  if (value.kind === 'array') {
    if (value.items.length === 0) return `[\n\n${indent}]`;
    return `[\n${value.items.map((item) => inner + serialize(item, inner)).join(',\n')}\n${indent}]`;
  }
  if (value.entries.length === 0) return `{\n\n${indent}}`;
  const lines = value.entries.map((entry) => `${inner}${entry.rawKey} : ${serialize(entry.value, inner)}`);
  return `{\n${lines.join(',\n')}\n${indent}}`;
}
