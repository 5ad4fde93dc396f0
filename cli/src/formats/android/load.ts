/**
 * An Android resource file parsed: the children of `<resources>` with their places in the text, its
 * translatable entries (strings, string arrays, plurals) with their values and comments, and the
 * locale document they make.
 */
import { PLURAL_CATEGORIES, type PluralCategory } from '@tolk/locale-file';
import { addFinding, FormatError, type FileFinding, type ReadInput } from '../format.js';
import { keyOfName } from '../key-names.js';
import { icuPluralMessage, type Interpolation } from '../plural-message.js';
import { decodeUtf8 } from '../utf8.js';
import { openTagEnd, parseXmlStrictly, type XmlNode } from '../xml-dom.js';
import { AndroidText } from './text.js';

/** Android text has no named arguments: `{name}` in it reads as an ICU argument and back. */
export const ANDROID_INTERPOLATION: Interpolation = { prefix: '' };
const PLURAL_ARGUMENT = 'count';
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

export const ELEMENT = 1;
export const TEXT = 3;
const CDATA = 4;
const COMMENT = 8;

/** A node and where it is in the text: [start, end). */
export type Span = { node: XmlNode; start: number; end: number };

export type Entry =
  | { kind: 'string'; name: string; span: Span; value: string; cdata: boolean }
  | { kind: 'array'; name: string; span: Span; items: ArrayItem[] }
  | { kind: 'plurals'; name: string; span: Span; items: PluralItem[]; value: string };

type ArrayItem = { span: Span; value: string; cdata: boolean; reference: boolean };
type PluralItem = { span: Span; quantity: PluralCategory; value: string; cdata: boolean };

export type Loaded = {
  path: string;
  text: string;
  /** The children of `<resources>`, with their places. */
  children: Span[];
  /** The translatable entries, by the index of their element in `children`. */
  entries: Map<number, Entry>;
  /** The context of an entry: its comments, by the index of its element. */
  comments: Map<number, number[]>;
};

/** Other resources (colors, sizes, styles, ...) hold no text to translate; these may. */
function holdsText(node: XmlNode): boolean {
  const type = node.getAttribute?.('type');
  if (node.nodeName === 'item') return type === 'string' || type === 'plurals';
  return node.nodeName === 'array';
}

export function load(bytes: Buffer, path: string, report?: Pick<ReadInput, 'path' | 'findings'>): Loaded {
  const decoded = decodeUtf8(bytes, path, 'save strings.xml as UTF-8');
  const bom = decoded.startsWith('\uFEFF') ? 1 : 0;
  const text = decoded;
  const lineStarts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lineStarts.push(at + 1);
  const offsetOf = (node: XmlNode) => {
    const start = lineStarts[(node.lineNumber ?? 1) - 1] ?? 0;
    return start + (node.columnNumber ?? 1) - 1 + (node.lineNumber === 1 ? bom : 0);
  };
  const fail = (reason: string, node?: XmlNode): never => {
    throw new FormatError(
      path,
      reason,
      node?.lineNumber ? { line: node.lineNumber, column: node.columnNumber ?? 1 } : undefined,
    );
  };

  const doctype = /<!DOCTYPE/i.exec(text);
  if (doctype) {
    const line = text.slice(0, doctype.index).split('\n').length;
    const column = doctype.index - lineStarts[line - 1]! + 1;
    throw new FormatError(
      path,
      'has a DOCTYPE; Android resource files have none (DTDs and entities are refused)',
      {
        line,
        column,
      },
    );
  }
  const document = parseXmlStrictly(text.slice(bom), path);
  const root = document.documentElement;
  if (!root || root.nodeName !== 'resources') {
    return fail(
      `has no <resources> root element${root ? ` (it is <${root.nodeName}>)` : ''}`,
      root ?? undefined,
    );
  }

  const places = placesIn(text, offsetOf);
  const rootClose = text.lastIndexOf(`</${root.nodeName}`);
  const rootSpan: Span = { node: root, start: offsetOf(root), end: text.indexOf('>', rootClose) + 1 };
  const children = places.childrenOf(rootSpan);
  const entries = new Map<number, Entry>();
  const comments = new Map<number, number[]>();
  const finding: Finder = (node, key, kind, message, severity = 'warning') => {
    if (report) {
      addFinding(report, {
        key,
        kind,
        severity,
        message,
        line: node.lineNumber ?? 1,
        column: node.columnNumber ?? 1,
      });
    }
  };
  const reading: Reading = { places, finding, names: new Map() };

  children.forEach((span, index) => {
    const entry = entryOf(reading, span);
    if (!entry) return;
    entries.set(index, entry);
    comments.set(index, commentsAbove(children, index));
  });
  return { path, text, children, entries, comments };
}

/** Reports a finding about an element of the file, at its line. */
type Finder = (
  node: XmlNode,
  key: string | null,
  kind: FileFinding['kind'],
  message: string,
  severity?: FileFinding['severity'],
) => void;

/** The children of `<resources>` being read: their places, where findings go, the names seen. */
type Reading = { places: Places; finding: Finder; names: Map<string, XmlNode> };

/**
 * A child of `<resources>` as a translatable entry; undefined for what is none (text between
 * elements, other resources, `translatable="false"`, references) or what Tolk does not read (a
 * finding says so).
 */
function entryOf(reading: Reading, span: Span): Entry | undefined {
  const { places, finding, names } = reading;
  const { node } = span;
  if (node.nodeType === TEXT && (node.data ?? '').trim() !== '') {
    finding(
      node,
      null,
      'format',
      `text outside any element (${JSON.stringify((node.data ?? '').trim().slice(0, 40))}), which aapt2 refuses ("plain text not allowed here"); a target Tolk writes leaves it out`,
      'error',
    );
    return undefined;
  }
  if (node.nodeType !== ELEMENT) return undefined;
  const kind = ({ string: 'string', 'string-array': 'array', plurals: 'plurals' } as const)[
    node.nodeName as 'string'
  ];
  if (!kind) {
    if (holdsText(node)) {
      finding(
        node,
        node.getAttribute!('name') || null,
        'format',
        `<${node.nodeName}${node.getAttribute!('type') ? ` type="${node.getAttribute!('type')}"` : ''}> is a resource Tolk does not read (it reads <string>, <plurals> and <string-array>); left out of targets`,
      );
    }
    return undefined;
  }
  const name = node.getAttribute!('name');
  if (name === null || name === '') {
    finding(node, null, 'format', `a <${node.nodeName}> has no name attribute; left out`, 'error');
    return undefined;
  }
  if (!NAME.test(name)) {
    finding(
      node,
      null,
      'format',
      `the name ${JSON.stringify(name)} is not a resource name (letters, digits, _ and . between them); left out`,
      'error',
    );
    return undefined;
  }
  const earlier = names.get(name);
  if (earlier) {
    finding(
      node,
      keyOfName(name),
      'duplicate',
      `the name ${JSON.stringify(name)} is given twice (lines ${earlier.lineNumber}, ${node.lineNumber}); the first is kept, and aapt2 refuses the file until one goes`,
      'error',
    );
    return undefined;
  }
  names.set(name, node);
  if (node.getAttribute!('translatable') === 'false') return undefined;
  if (kind === 'string') {
    const content = contentOf(places, span);
    if (content.reference) return undefined;
    return { kind, name, span: span, value: content.value, cdata: content.cdata };
  }
  return kind === 'array' ? arrayEntry(reading, name, span) : pluralsEntry(reading, name, span);
}

/** The element children of an array or plurals: its `<item>`s and the others, which go in no such. */
function itemsOf(places: Places, span: Span): { items: Span[]; others: Span[] } {
  const items = places.childrenOf(span).filter((child) => child.node.nodeType === ELEMENT);
  return { items, others: items.filter((item) => item.node.nodeName !== 'item') };
}

/** A `<string-array>`: its items, unless one is no `<item>` or every one is a reference. */
function arrayEntry({ places, finding }: Reading, name: string, span: Span): Entry | undefined {
  const { items, others } = itemsOf(places, span);
  if (others.length > 0) {
    // An array's items are keys by their index: one Tolk cannot read leaves the rest unplaced.
    finding(
      others[0]!.node,
      keyOfName(name),
      'format',
      `<string-array name="${name}"> holds a <${others[0]!.node.nodeName}>; only <item> elements go in it, so the array is left out`,
    );
    return undefined;
  }
  const read = items.map((item) => ({ span: item, ...contentOf(places, item) }));
  if (read.every((item) => item.reference)) return undefined;
  return { kind: 'array', name, span: span, items: read };
}

/** A `<plurals>`: its items of CLDR quantities, the first of each, as one ICU plural message. */
function pluralsEntry({ places, finding }: Reading, name: string, span: Span): Entry | undefined {
  const { node } = span;
  const { items, others } = itemsOf(places, span);
  const key = keyOfName(name);
  for (const other of others) {
    finding(
      other.node,
      key,
      'format',
      `<plurals name="${name}"> holds a <${other.node.nodeName}>; only <item> elements go in it, so it is left out`,
    );
  }
  const plural: PluralItem[] = [];
  for (const item of items) {
    if (item.node.nodeName !== 'item') continue;
    const quantity = item.node.getAttribute!('quantity') ?? '';
    if (!(PLURAL_CATEGORIES as readonly string[]).includes(quantity)) {
      finding(
        item.node,
        key,
        'format',
        `<plurals name="${name}"> has an item of quantity ${JSON.stringify(quantity)}; quantities are ${PLURAL_CATEGORIES.join(', ')}, so it is left out`,
      );
      continue;
    }
    if (plural.some((other) => other.quantity === quantity)) {
      finding(
        item.node,
        key,
        'duplicate',
        `<plurals name="${name}"> has two items of quantity "${quantity}"; the first is kept, and aapt2 refuses the file until one goes`,
        'error',
      );
      continue;
    }
    const content = contentOf(places, item);
    plural.push({
      span: item,
      quantity: quantity as PluralCategory,
      value: content.value,
      cdata: content.cdata,
    });
  }
  if (plural.length === 0) {
    finding(node, key, 'format', `<plurals name="${name}"> has no item Tolk reads; left out`);
    return undefined;
  }
  if (!plural.some((item) => item.quantity === 'other')) {
    finding(
      node,
      key,
      'plural',
      `<plurals name="${name}"> has no item of quantity "other", which every language uses; its ${plural.map((item) => item.quantity).join(', ')} are kept`,
      'error',
    );
  }
  const value = icuPluralMessage(
    PLURAL_ARGUMENT,
    plural.map((item) => [item.quantity, item.value] as const),
    ANDROID_INTERPOLATION,
  );
  return { kind: 'plurals', name, span: span, items: plural, value };
}

/** The comments right above children[index]: only whitespace between, no blank line. */
export function commentsAbove(children: readonly Span[], index: number): number[] {
  const above: number[] = [];
  for (let at = index - 1; at >= 0; at--) {
    const node = children[at]!.node;
    if (node.nodeType === COMMENT) above.unshift(at);
    else if (node.nodeType !== TEXT || !/^[ \t\r]*\n?[ \t\r]*$/.test(node.data ?? '')) break;
  }
  return above;
}

/** The text and where each node is in it. */
type Places = { text: string; childrenOf(element: Span): Span[] };

/**
 * Node positions as offsets in the text: a child ends where its next sibling starts, the last
 * one where its parent's closing tag does, so an element's span ends after its own closing tag.
 */
function placesIn(text: string, offsetOf: (node: XmlNode) => number): Places {
  return {
    text,
    childrenOf(element) {
      const nodes: XmlNode[] = [];
      for (let node = element.node.firstChild; node; node = node.nextSibling) nodes.push(node);
      const close = text.lastIndexOf('</', element.end - 1);
      return nodes.map((node, index) => ({
        node,
        start: offsetOf(node),
        end: index + 1 < nodes.length ? offsetOf(nodes[index + 1]!) : close,
      }));
    },
  };
}

/**
 * An element's value as the app shows it: Android's escapes and quotes read, unquoted whitespace
 * collapsed and trimmed; inline markup kept as written. A reference (`@string/x`) is no text.
 */
function contentOf(places: Places, element: Span): { value: string; cdata: boolean; reference: boolean } {
  const { text } = places;
  const children = places.childrenOf(element);
  const meaningful = children.filter(
    (child) => !(child.node.nodeType === TEXT && (child.node.data ?? '').trim() === ''),
  );
  const cdata = meaningful.length === 1 && meaningful[0]!.node.nodeType === CDATA;
  const reference =
    meaningful.length === 1 &&
    meaningful[0]!.node.nodeType === TEXT &&
    /^\s*[@?]/.test(meaningful[0]!.node.data ?? '');
  const builder = new AndroidText();
  const visit = (child: Span) => {
    const { node } = child;
    if (node.nodeType === TEXT || node.nodeType === CDATA) builder.text(node.data ?? '');
    else if (node.nodeType === ELEMENT) {
      const open = openTagEnd(text, child.start);
      builder.markup(text.slice(child.start, open));
      if (text.slice(open - 2, open) === '/>') return;
      for (const grandchild of places.childrenOf(child)) visit(grandchild);
      builder.markup(text.slice(text.lastIndexOf('</', child.end - 1), child.end));
    }
  };
  for (const child of children) visit(child);
  return { value: builder.done(), cdata, reference };
}

export function documentOf(loaded: Loaded): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const [index, entry] of loaded.entries) {
    const description = (loaded.comments.get(index) ?? [])
      .map((at) => (loaded.children[at]!.node.data ?? '').trim())
      .filter((line) => line !== '')
      .join('\n');
    const keys: [string, string][] =
      entry.kind === 'array'
        ? entry.items.flatMap((item, at) =>
            item.reference ? [] : [[`${keyOfName(entry.name)}.${at}`, item.value] as [string, string]],
          )
        : [[keyOfName(entry.name), entry.value]];
    for (const [key, value] of keys) {
      define(document, key, value);
      if (description) define(document, `@${key}`, { description });
    }
  }
  return document;
}

/** The keys of an entry: its name's, or a string array's items' (`k.0`, references left out). */
export function keysOf(entry: Entry): string[] {
  if (entry.kind !== 'array') return [keyOfName(entry.name)];
  return entry.items.flatMap((item, at) => (item.reference ? [] : [`${keyOfName(entry.name)}.${at}`]));
}

/** A property of a plain object, `__proto__` included. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
