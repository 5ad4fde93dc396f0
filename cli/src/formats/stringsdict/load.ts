/** A `.stringsdict` plist read: its entries, each format key's variables as one ICU plural message. */
import { PLURAL_CATEGORIES } from '@tolk/locale-file';
import * as plist from 'plist';
import { addFinding, FormatError, type FileFinding, type ReadInput } from '../format.js';
import { icuBranchText, icuPluralMessage, type Interpolation } from '../plural-message.js';
import { keyOfName, nameProblem } from '../key-names.js';
import { decodeUtf8 } from '../utf8.js';
import { parseXmlStrictly, refuseInternalSubset } from '../xml-dom.js';

export const FORMAT_KEY = 'NSStringLocalizedFormatKey';
const SPEC_TYPE = 'NSStringFormatSpecTypeKey';
const PLURAL_RULE = 'NSStringPluralRuleType';
/** `%#@name@` in a format key: a variable of the entry. */
const VARIABLE = /%#@([^@\s]+)@/g;
/** Apple's placeholders are printf's, no braces: nothing of the text is an ICU argument. */
export const APPLE_INTERPOLATION: Interpolation = { prefix: '\u0000' };

export type PlistDict = Record<string, unknown>;
export type Entry = {
  /** The entry's key in the file. */
  name: string;
  /** Its key in the locale document (`key-names.ts`). */
  key: string;
  formatKey: string;
  variables: Map<string, PlistDict>;
  message: string;
};
type Loaded = { text: string; root: PlistDict; entries: Entry[] };

export function isDict(value: unknown): value is PlistDict {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !Buffer.isBuffer(value)
  );
}

export function load(bytes: Buffer, path: string, report?: Pick<ReadInput, 'path' | 'findings'>): Loaded {
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
  // A byte order mark is kept in the text (and written back) but is no XML.
  const xml = text.startsWith('\uFEFF') ? text.slice(1) : text;
  // Strictly first, for the place of any fault: `plist` itself reads past what xmldom reports.
  parseXmlStrictly(xml, path);
  let root: unknown;
  try {
    root = plist.parse(xml);
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
export function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
