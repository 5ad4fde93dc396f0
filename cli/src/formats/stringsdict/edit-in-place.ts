/** A `.stringsdict` target on disk edited where its entries differ (DESIGN §16): `editedTarget`. */
import * as plist from 'plist';
import { decodeUtf8 } from '../utf8.js';
import { openTagEnd, parseXmlStrictly, refuseInternalSubset, type XmlNode } from '../xml-dom.js';
import { type PlistDict, isDict } from './load.js';

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
export function editedTarget(
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
