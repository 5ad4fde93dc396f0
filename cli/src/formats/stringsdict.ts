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
 * `plist` lay out plists. Keys with no value are left out. A target on disk that parses is edited
 * in place instead (DESIGN §16, `editedTarget`): its prolog, DOCTYPE, comments, indentation and
 * line endings stay, and only the entries whose forms change, come or go change. A byte order mark
 * is read past and kept.
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
  keepsUnwritten,
  type FileFinding,
  type LocaleFormat,
  type ReadInput,
  type WriteInput,
} from './format.js';
import { icuBranchText, icuPluralMessage, pluralBranches, type Interpolation } from './plural-message.js';
import { keyOfName, nameProblem } from './key-names.js';
import { decodeUtf8 } from './utf8.js';
import { openTagEnd, parseXmlStrictly, refuseInternalSubset, type XmlNode } from './xml-dom.js';

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
  // DESIGN §16: a target on disk is edited where its translations change, and nowhere else.
  const edited = input.existing
    ? editedTarget(input.existing, root, (name) => keepsUnwritten(input, keyOfName(name)))
    : undefined;
  if (edited !== undefined) return Buffer.from(edited, 'utf8');
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

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;
const COMMENT = 8;

/** A node and where it is in the text: [start, end). */
type Span = { node: XmlNode; start: number; end: number };
/** A `<key>` of a dict and the element of its value. */
type Pair = { name: string; key: Span; value: Span; index: number };
type Edit = { start: number; end: number; text: string };

/** The file's nodes with their places (a child ends where its next sibling starts). */
function placesOf(text: string, document: { documentElement: XmlNode | null }) {
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  const lineStarts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lineStarts.push(at + 1);
  const offsetOf = (node: XmlNode) =>
    (lineStarts[(node.lineNumber ?? 1) - 1] ?? 0) +
    (node.columnNumber ?? 1) -
    1 +
    (node.lineNumber === 1 ? bom : 0);
  const childrenOf = (element: Span): Span[] => {
    const nodes: XmlNode[] = [];
    for (let node = element.node.firstChild; node; node = node.nextSibling) nodes.push(node);
    const close = text.lastIndexOf('</', element.end - 1);
    return nodes.map((node, index) => ({
      node,
      start: offsetOf(node),
      end: index + 1 < nodes.length ? offsetOf(nodes[index + 1]!) : close,
    }));
  };
  const root = document.documentElement!;
  const rootSpan: Span = { node: root, start: offsetOf(root), end: text.lastIndexOf('>') + 1 };
  return { childrenOf, rootSpan };
}

function textOf(node: XmlNode): string {
  let out = '';
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === TEXT || child.nodeType === CDATA) out += child.data ?? '';
  }
  return out;
}

function escapeXml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A plist value as XML, its inner lines indented from `indent` by `unit`. */
function xmlOf(value: unknown, indent: string, unit: string, newline: string): string {
  if (typeof value === 'string') return `<string>${escapeXml(value)}</string>`;
  if (typeof value === 'boolean') return value ? '<true/>' : '<false/>';
  if (typeof value === 'number') {
    return Number.isInteger(value) ? `<integer>${value}</integer>` : `<real>${value}</real>`;
  }
  if (value instanceof Date) return `<date>${value.toISOString().replace(/\.\d{3}Z$/, 'Z')}</date>`;
  if (Buffer.isBuffer(value)) return `<data>${value.toString('base64')}</data>`;
  const inner = indent + unit;
  if (Array.isArray(value)) {
    if (value.length === 0) return '<array/>';
    return `<array>${value.map((item) => newline + inner + xmlOf(item, inner, unit, newline)).join('')}${newline}${indent}</array>`;
  }
  const entries = Object.entries(value as PlistDict);
  if (entries.length === 0) return '<dict/>';
  return `<dict>${entries
    .map(
      ([key, item]) =>
        `${newline}${inner}<key>${escapeXml(key)}</key>${newline}${inner}${xmlOf(item, inner, unit, newline)}`,
    )
    .join('')}${newline}${indent}</dict>`;
}

/** Two plist values hold the same (dicts by their keys, in any order). */
function samePlist(a: unknown, b: unknown): boolean {
  if (isDict(a) && isDict(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((key) => key in b && samePlist(a[key], b[key]))
    );
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => samePlist(item, b[index]));
  }
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  return a === b;
}

/**
 * The target on disk with `wanted` (its entries in the source's order) written where it differs
 * (DESIGN §16): a changed string's content replaced where it stands, a key the entry no longer
 * has (a plural form the locale lacks) removed with its line, one it lacks inserted after the
 * key before it in the indentation of its neighbours; an entry whose value is left out, or that
 * the source lacks and Tolk synced, removed with its lines and the comments right above it (one
 * `keeps`, of its name, stays as it is: a translator's own); a new entry inserted
 * after the nearest entry before it in the source that the target has (else before the nearest
 * one after it, else at the end). Everything else stays byte for byte. Undefined when the target
 * does not parse, or its root dict is `<dict/>`: it is then written as a new file.
 */
function editedTarget(
  existing: Buffer,
  wanted: PlistDict,
  keeps: (name: string) => boolean,
): string | undefined {
  let text: string;
  let document: { documentElement: XmlNode | null };
  let current: unknown;
  try {
    // What `load` refuses, without reading the entries: they are compared as plist values.
    text = decodeUtf8(existing, '(target)', 'save it as UTF-8');
    refuseInternalSubset(text, '(target)', 'property lists');
    const xml = text.startsWith('\uFEFF') ? text.slice(1) : text;
    document = parseXmlStrictly(xml, '(target)');
    current = plist.parse(xml);
  } catch {
    return undefined;
  }
  if (!isDict(current)) return undefined;
  const { childrenOf, rootSpan } = placesOf(text, document);
  const rootDict = childrenOf(rootSpan).find((span) => span.node.nodeType === ELEMENT);
  if (!rootDict || rootDict.node.nodeName !== 'dict') return undefined;
  const children = childrenOf(rootDict);
  const pairs = pairsOf(children);
  const rootOpen = openTagEnd(text, rootDict.start);
  if (text.slice(rootOpen - 2, rootOpen) === '/>') return undefined;
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const indentBefore = (list: Span[], index: number) => {
    const before = list[index - 1];
    if (!before || before.node.nodeType !== TEXT) return undefined;
    const space = text.slice(before.start, before.end);
    return /^\s*$/.test(space) ? space.slice(space.lastIndexOf('\n') + 1) : undefined;
  };
  // An empty root dict: its entries one unit (its own indentation, else a tab) inside it.
  const rootIndent = /[ \t]*$/.exec(text.slice(0, rootDict.start))![0];
  const entryIndent =
    pairs.length > 0 ? (indentBefore(children, pairs[0]!.index) ?? '') : rootIndent + (rootIndent || '\t');
  // The unit of indentation: an entry's keys' indentation past the entry's own.
  let unit = '\t';
  for (const pair of pairs) {
    if (pair.value.node.nodeName !== 'dict') continue;
    const inner = childrenOf(pair.value);
    const first = inner.findIndex((span) => span.node.nodeType === ELEMENT);
    const indent = first === -1 ? undefined : indentBefore(inner, first);
    if (indent !== undefined && indent.startsWith(entryIndent) && indent.length > entryIndent.length) {
      unit = indent.slice(entryIndent.length);
      break;
    }
  }
  const edits: Edit[] = [];

  /** Where the whitespace right before children[index] starts (its line break and indentation). */
  const lineStart = (list: Span[], index: number) => {
    const before = list[index - 1];
    return before && before.node.nodeType === TEXT && /^\s*$/.test(before.node.data ?? '')
      ? before.start
      : list[index]!.start;
  };
  /** The first of the comments right above a pair (no blank line between), else the pair. */
  const commentsFrom = (list: Span[], pair: Pair) => {
    let first = pair.index;
    for (let at = pair.index - 1; at >= 0; at--) {
      const node = list[at]!.node;
      if (node.nodeType === COMMENT) first = at;
      else if (node.nodeType !== TEXT || !/^[ \t\r]*\n?[ \t\r]*$/.test(node.data ?? '')) break;
    }
    return first;
  };
  const removePair = (list: Span[], pair: Pair, withComments: boolean) => {
    const first = withComments ? commentsFrom(list, pair) : pair.index;
    edits.push({ start: lineStart(list, first), end: valueEnd(pair.value), text: '' });
  };
  const valueEnd = (span: Span) => {
    // A value's span runs to the next sibling; its element ends at its own closing tag.
    let end = span.end;
    while (end > span.start && /\s/.test(text[end - 1]!)) end--;
    return end;
  };

  /** Edits the dict at `span` (its current value `now`) into `want`. */
  const editDict = (
    span: Span,
    list: Span[],
    now: PlistDict,
    want: PlistDict,
    indent: string,
    topLevel: boolean,
  ) => {
    const own = pairsOf(list);
    const byName = new Map<string, Pair>();
    for (const pair of own) {
      if (!byName.has(pair.name)) byName.set(pair.name, pair);
      else removePair(list, pair, topLevel);
    }
    for (const pair of own) {
      if (byName.get(pair.name) !== pair) continue;
      if (!Object.prototype.hasOwnProperty.call(want, pair.name)) {
        if (!topLevel || !keeps(pair.name)) removePair(list, pair, topLevel);
        continue;
      }
      editValue(pair.value, now[pair.name], want[pair.name], indent);
    }
    const names = Object.keys(want);
    // For each wanted key, the nearest pair before it (and after it) that the dict has: linear.
    const before: (Pair | undefined)[] = [];
    let seen: Pair | undefined;
    for (const name of names) {
      before.push(seen);
      seen = byName.get(name) ?? seen;
    }
    const after: (Pair | undefined)[] = new Array<Pair | undefined>(names.length);
    seen = undefined;
    for (let at = names.length - 1; at >= 0; at--) {
      after[at] = seen;
      seen = byName.get(names[at]!) ?? seen;
    }
    // At the end of the dict: after its last element or comment.
    let last = list.length - 1;
    while (last >= 0 && list[last]!.node.nodeType === TEXT) last--;
    const end = last >= 0 ? valueEnd(list[last]!) : openTagEnd(text, span.start);
    names.forEach((name, at) => {
      if (byName.has(name)) return;
      const block = `${newline}${indent}<key>${escapeXml(name)}</key>${newline}${indent}${xmlOf(want[name], indent, unit, newline)}`;
      const previous = before[at];
      const next = after[at];
      const place = previous
        ? valueEnd(previous.value)
        : next
          ? lineStart(list, topLevel ? commentsFrom(list, next) : next.index)
          : end;
      edits.push({ start: place, end: place, text: block });
    });
  };

  const editValue = (span: Span, now: unknown, want: unknown, indent: string) => {
    if (samePlist(now, want)) return;
    const element = span.node.nodeName;
    const end = valueEnd(span);
    const open = openTagEnd(text, span.start);
    const selfClosed = text.slice(open - 2, open) === '/>';
    if (typeof want === 'string' && element === 'string') {
      if (selfClosed) edits.push({ start: span.start, end, text: xmlOf(want, indent, unit, newline) });
      else edits.push({ start: open, end: text.lastIndexOf('</', end - 1), text: escapeXml(want) });
      return;
    }
    if (isDict(want) && isDict(now) && element === 'dict' && !selfClosed) {
      const list = childrenOf(span);
      if (pairsOf(list).length > 0) {
        const first = list.findIndex((child) => child.node.nodeType === ELEMENT);
        editDict(span, list, now, want, indentBefore(list, first) ?? indent + unit, false);
        return;
      }
    }
    edits.push({ start: span.start, end, text: xmlOf(want, indent, unit, newline) });
  };

  editDict(rootDict, children, current, wanted, entryIndent, true);
  if (edits.length === 0) return text;
  // In the text's order; at one place what goes there first, in the order placed, then a removal.
  const order = edits.map((edit, index) => ({ ...edit, index }));
  order.sort((a, b) => a.start - b.start || a.end - a.start - (b.end - b.start) || a.index - b.index);
  const pieces: string[] = [];
  let at = 0;
  for (const edit of order) {
    pieces.push(text.slice(at, edit.start), edit.text);
    at = Math.max(at, edit.end);
  }
  pieces.push(text.slice(at));
  const out = pieces.join('');
  return out;
}

/** The key–value pairs of a dict's children (a `<key>` and the element after it). */
function pairsOf(list: Span[]): Pair[] {
  const pairs: Pair[] = [];
  for (let at = 0; at < list.length; at++) {
    const node = list[at]!.node;
    if (node.nodeType !== ELEMENT || node.nodeName !== 'key') continue;
    let next = at + 1;
    while (next < list.length && list[next]!.node.nodeType !== ELEMENT) next++;
    if (next === list.length) break;
    pairs.push({ name: textOf(node), key: list[at]!, value: list[next]!, index: at });
    at = next;
  }
  return pairs;
}
