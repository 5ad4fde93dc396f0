/**
 * `stringsdict`: an Apple plural rules file (`en.lproj/Localizable.stringsdict`), DESIGN §12.
 *
 * Parsed and built with `plist` (maintained; it parses with @xmldom/xmldom, which reads the
 * DOCTYPE but never loads an external DTD or entity, so no XXE). Each entry of the root dict is
 * one key of the locale document, holding an ICU message made of its format key:
 *
 * - `NSStringLocalizedFormatKey` exactly `%#@items@` (one variable): the key's value is the
 *   variable as an ICU plural on its own name: `{items, plural, one {%d item} other {%d items}}`;
 * - any other format key (`%@ has %#@files@ in %#@folders@`): its text with each `%#@var@` replaced
 *   by that variable's ICU plural, the text around it quoted for ICU where needed.
 *
 * The branch texts keep Apple's placeholders (`%d`, `%lld`, `%@`, `%1$@`) as text; the server's
 * placeholder scanner checks them. A target entry is written with the TARGET's categories
 * (CLDR, in CLDR order), each from the message's branch (or `other`), after the variable's
 * `NSStringFormatSpecTypeKey` and `NSStringFormatValueTypeKey`; a language with only `other`
 * that dropped the plural gets its text as the format key. The source's XML declaration and
 * DOCTYPE are written back as they are, and its indentation (a tab as Xcode writes, or spaces),
 * so a source written with its own values is the same bytes when it was laid out as Xcode and
 * `plist` lay out plists. Keys with no value are left out.
 *
 * An entry's key is its key in the file, escaped where the locale document cannot hold it as it
 * is (`"%d files deleted."`, a final i18next plural suffix: `key-names.ts`).
 *
 * Findings, each at its entry's `<key>`, the rest of the file read (DESIGN §15): an entry that is
 * not a dict, has no `NSStringLocalizedFormatKey`, names a variable that is not a dict with
 * `NSStringFormatSpecTypeKey` = `NSStringPluralRuleType`, or whose key cannot be a key (left out);
 * a variable without `other` (its forms are kept: an error, Foundation has no text for the counts
 * `other` covers).
 *
 * Refused (the file does not parse): XML that is not well-formed or names an entity it does not
 * define (line and column; checked by xmldom strictly before `plist` reads it), a DOCTYPE with
 * declarations of its own (how an entity bomb comes; Apple's DOCTYPE has none), a root that is not
 * a dict.
 */
import { TYPE, parse as parseIcu, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';
import { PLURAL_CATEGORIES, pluralCategories, type PluralCategory } from '@tolk/locale-file';
import * as plist from 'plist';
import { lprojSpelling } from './bcp47-spelling.js';
import {
  addFinding,
  FormatError,
  type FileFinding,
  type LocaleFormat,
  type ReadInput,
  type WriteInput,
} from './format.js';
import { icuBranchText, icuPluralMessage, pluralBranches, type Interpolation } from './plural-message.js';
import { keyOfName, nameProblem } from './key-names.js';
import { decodeUtf8 } from './utf8.js';
import { parseXmlStrictly, refuseInternalSubset } from './xml-dom.js';

const FORMAT_KEY = 'NSStringLocalizedFormatKey';
const SPEC_TYPE = 'NSStringFormatSpecTypeKey';
const PLURAL_RULE = 'NSStringPluralRuleType';
/** `%#@name@` in a format key: a variable of the entry. */
const VARIABLE = /%#@([^@\s]+)@/g;
/** Apple's placeholders are printf's, no braces: nothing of the text is an ICU argument. */
const APPLE_INTERPOLATION: Interpolation = { prefix: '\u0000' };

export const stringsdictFormat: LocaleFormat = {
  name: 'stringsdict',
  extensions: ['.stringsdict'],
  ...lprojSpelling,
  read(input: ReadInput) {
    const loaded = load(input.bytes, input.path, input);
    const document: Record<string, unknown> = {};
    for (const entry of loaded.entries) define(document, entry.key, entry.message);
    return document;
  },
  write: writeStringsdict,
};

type PlistDict = Record<string, unknown>;
type Entry = {
  /** The entry's key in the file. */
  name: string;
  /** Its key in the locale document (`key-names.ts`). */
  key: string;
  formatKey: string;
  variables: Map<string, PlistDict>;
  message: string;
};
type Loaded = { text: string; root: PlistDict; entries: Entry[] };

function isDict(value: unknown): value is PlistDict {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !Buffer.isBuffer(value)
  );
}

function load(bytes: Buffer, path: string, report?: Pick<ReadInput, 'path' | 'findings'>): Loaded {
  const text = decodeUtf8(bytes, path, 'save it as UTF-8');
  // Where a `<key>` of the file is, for findings about its entry.
  const keyAt = (name: string) => {
    const escaped = name.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
    const offset = text.indexOf(`<key>${escaped}</key>`);
    return offset === -1 ? { line: 1, column: 1 } : positionOf(text, offset);
  };
  const finding = (
    name: string,
    key: string | null,
    kind: FileFinding['kind'],
    message: string,
    severity: FileFinding['severity'] = 'warning',
  ) => {
    if (report) addFinding(report, { key, kind, severity, message, ...keyAt(name) });
  };
  refuseInternalSubset(text, path, 'property lists');
  // Strictly first, for the place of any fault: `plist` itself reads past what xmldom reports.
  parseXmlStrictly(text, path);
  let root: unknown;
  try {
    root = plist.parse(text);
  } catch (error) {
    throw new FormatError(
      path,
      `is not a property list: ${(error as Error).message.split('\n')[0]!}`,
      error instanceof RangeError
        ? { line: 1, column: 1 }
        : positionOf(text, Math.max(text.search(/<plist[\s>]/), 0)),
    );
  }
  if (!isDict(root)) {
    throw new FormatError(
      path,
      'the property list is not a dict of entries',
      positionOf(text, Math.max(text.search(/<plist[\s>]/), 0)),
    );
  }
  const entries: Entry[] = [];
  for (const [key, value] of Object.entries(root)) {
    if (!isDict(value)) {
      finding(key, null, 'format', `the entry ${JSON.stringify(key)} is not a dict; left out`);
      continue;
    }
    const formatKey = value[FORMAT_KEY];
    if (typeof formatKey !== 'string') {
      finding(
        key,
        null,
        'format',
        `the entry ${JSON.stringify(key)} has no ${FORMAT_KEY} (a string such as "%#@items@"); left out`,
      );
      continue;
    }
    const problem = nameProblem(key);
    if (problem) {
      finding(
        key,
        null,
        'format',
        `the key ${JSON.stringify(key)} cannot be a key of a locale document: it ${problem}; left out`,
      );
      continue;
    }
    const variables = new Map<string, PlistDict>();
    let unread: string | undefined;
    for (const [, name] of formatKey.matchAll(VARIABLE)) {
      const variable = value[name!];
      unread ??= !isDict(variable)
        ? `names the variable ${JSON.stringify(name)}, which is not a dict of the entry`
        : variable[SPEC_TYPE] !== PLURAL_RULE
          ? `has the variable ${JSON.stringify(name)} whose ${SPEC_TYPE} is not ${PLURAL_RULE}`
          : undefined;
      if (unread) break;
      const forms = PLURAL_CATEGORIES.filter(
        (category) => typeof (variable as PlistDict)[category] === 'string',
      );
      if (forms.length === 0) {
        unread = `has the variable ${JSON.stringify(name)} with no plural form`;
        break;
      }
      if (!forms.includes('other')) {
        finding(
          key,
          keyOfName(key),
          'plural',
          `the entry ${JSON.stringify(key)} has the variable ${JSON.stringify(name)} without an "other" string, which every language uses; its ${forms.join(', ')} are kept`,
          'error',
        );
      }
      variables.set(name!, variable as PlistDict);
    }
    if (unread) {
      finding(key, keyOfName(key), 'format', `the entry ${JSON.stringify(key)} ${unread}; left out`);
      continue;
    }
    entries.push({
      name: key,
      key: keyOfName(key),
      formatKey,
      variables,
      message: messageOf(formatKey, variables),
    });
  }
  return { text, root, entries };
}

function positionOf(text: string, offset: number) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** A variable as an ICU plural on its name, its categories in CLDR order. */
function pluralOf(name: string, variable: PlistDict): string {
  const branches = PLURAL_CATEGORIES.filter((category) => typeof variable[category] === 'string').map(
    (category) => [category, variable[category] as string] as const,
  );
  return icuPluralMessage(name, branches, APPLE_INTERPOLATION);
}

/** The ICU message of an entry (see the module's comment). */
function messageOf(formatKey: string, variables: Map<string, PlistDict>): string {
  const only = /^%#@([^@\s]+)@$/.exec(formatKey);
  if (only) return pluralOf(only[1]!, variables.get(only[1]!)!);
  let out = '';
  let at = 0;
  for (const match of formatKey.matchAll(VARIABLE)) {
    out += icuBranchText(formatKey.slice(at, match.index), APPLE_INTERPOLATION);
    out += pluralOf(match[1]!, variables.get(match[1]!)!);
    at = match.index + match[0].length;
  }
  return out + icuBranchText(formatKey.slice(at), APPLE_INTERPOLATION);
}

/** A property of a plain object, `__proto__` included. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The entry for a target's `message`, with the target's categories. */
function targetEntry(
  entry: Entry,
  source: PlistDict,
  message: string,
  categories: readonly PluralCategory[],
): PlistDict {
  let elements: MessageFormatElement[] | undefined;
  try {
    elements = parseIcu(message, { ignoreTag: true });
  } catch {
    elements = undefined;
  }
  const plurals = new Map<string, string>();
  let formatKey: string;
  if (!elements) formatKey = message;
  else if (
    /^%#@([^@\s]+)@$/.test(entry.formatKey) &&
    !elements.some((element) => element.type === TYPE.plural)
  ) {
    // One variable, and a language with only `other` dropped the plural: its text is `other`.
    const name = [...entry.variables.keys()][0]!;
    plurals.set(name, message);
    formatKey = entry.formatKey;
  } else {
    formatKey = '';
    for (const element of elements) {
      if (element.type === TYPE.literal) formatKey += element.value;
      else if (element.type === TYPE.plural && entry.variables.has(element.value)) {
        formatKey += `%#@${element.value}@`;
        plurals.set(element.value, printAST([element]));
      } else formatKey += printAST([element]);
    }
  }
  const out: PlistDict = {};
  for (const [name, value] of Object.entries(source)) {
    if (name === FORMAT_KEY) {
      out[name] = formatKey;
      continue;
    }
    const variable = entry.variables.get(name);
    if (!variable) {
      out[name] = value;
      continue;
    }
    const plural = plurals.get(name);
    if (plural === undefined) continue;
    const branches = pluralBranches(plural, categories, APPLE_INTERPOLATION);
    const dict: PlistDict = {};
    for (const [field, fieldValue] of Object.entries(variable)) {
      if (!(PLURAL_CATEGORIES as readonly string[]).includes(field)) dict[field] = fieldValue;
    }
    for (const [category, text] of branches) dict[category] = text;
    out[name] = dict;
  }
  return out;
}

function writeStringsdict(input: WriteInput): Buffer {
  const loaded = load(input.source, '(source)');
  const categories = pluralCategories(input.locale);
  const root: PlistDict = {};
  for (const entry of loaded.entries) {
    const message = input.valueOf(entry.key);
    if (message === undefined) continue;
    root[entry.name] = targetEntry(entry, loaded.root[entry.name] as PlistDict, message, categories);
  }
  const { text } = loaded;
  const indent = /\n([ \t]+)</.exec(text)?.[1] ?? '\t';
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const built = plist.build(root as plist.PlistValue, { pretty: true, indent, newline });
  // The source's own prolog (XML declaration, DOCTYPE, comments), then the plist.
  const plistAt = text.search(/<plist[\s>]/);
  const prolog = plistAt === -1 ? '' : text.slice(0, plistAt);
  // `plist` indents the root dict inside `<plist>`; Xcode and plutil do not.
  let body = built
    .slice(built.search(/<plist[\s>]/))
    .split(newline)
    .map((line) => (line.startsWith(indent) && /^\s*</.test(line) ? line.slice(indent.length) : line))
    .join(newline);
  if (/\r?\n$/.test(text)) body += newline;
  return Buffer.from(prolog + body, 'utf8');
}
