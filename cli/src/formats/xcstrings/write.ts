/** One locale's localizations written into the catalog, in Xcode's order and layout; the others kept. */
import { TYPE, parse as parseIcu, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';
import { pluralCategories, type PluralCategory } from '@tolk/locale-file';
import type { WriteInput } from '../format.js';
import { pluralBranches, singlePlural } from '../plural-message.js';
import {
  BOM,
  type Catalog,
  type JsonEntry,
  type JsonObject,
  type JsonValue,
  field,
  load,
  object,
  objectField,
  spelling,
  unit,
} from './catalog.js';
import { APPLE_INTERPOLATION, type SourceString, messageOf, sourceStrings, unitValue } from './read.js';

/** Xcode's order of keys: case-insensitive, numbers by value, lower case first on a tie. */
const COLLATOR = new Intl.Collator('en', { numeric: true });

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

export function writeXcstrings(input: WriteInput): Buffer {
  // The file as it is now (it holds every locale): the one to change.
  const catalog = load(input.existing ?? input.source, '(catalog)');
  // Another version of the catalog (a merge, WriteInput.sameFile): what it holds is copied as it is.
  const other = input.sameFile && input.existing ? load(input.source, '(catalog)') : undefined;
  const spelled = spelling.spellLocale(input.locale);
  if (spelling.readLocale(catalog.sourceLanguage) === input.locale) {
    if (other) takeStrings(catalog, other, input);
  } else {
    const categories = pluralCategories(input.locale);
    const others = new Map(other ? sourceStrings(other).map((string) => [string.key, string]) : []);
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
      const theirs = field(field(others.get(string.key)?.entry.value, 'localizations'), spelled);
      setField(
        localizations,
        spelled,
        messageOf(theirs, false) === message
          ? theirs!
          : targetLocalization(previous, string, message, categories),
      );
    }
  }
  // Xcode writes `\n`; a checkout that turned it into `\r\n` keeps its line ends.
  let body = serialize(catalog.root, '');
  if (catalog.text.includes('\r\n')) body = body.replaceAll('\n', '\r\n');
  const text = (catalog.bom ? BOM : '') + body + catalog.trailing;
  return Buffer.from(text, 'utf8');
}

/**
 * The source language written from another version of the catalog (a merge): a string it has and
 * the catalog lacks is copied whole, with every localization; a string it lacks that was synced
 * (gone from it) and has no value is removed.
 */
function takeStrings(catalog: Catalog, other: Catalog, input: WriteInput): void {
  const own = sourceStrings(catalog);
  const theirs = sourceStrings(other);
  const ownKeys = new Set(own.map((string) => string.key));
  const theirKeys = new Set(theirs.map((string) => string.key));
  const gone = new Set(
    own
      .filter(
        (string) =>
          !theirKeys.has(string.key) && input.synced?.(string.key) && input.valueOf(string.key) === undefined,
      )
      .map((string) => string.entry),
  );
  catalog.strings.entries = catalog.strings.entries.filter((entry) => !gone.has(entry));
  const names = new Set(catalog.strings.entries.map((entry) => entry.key));
  for (const string of theirs) {
    if (ownKeys.has(string.key) || names.has(string.entry.key) || input.valueOf(string.key) === undefined)
      continue;
    setField(catalog.strings, string.entry.key, string.entry.value);
  }
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
