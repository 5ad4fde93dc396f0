/** Editing a collection's items in the CST while keeping its layout (indentation, commas, comments). */
import { CST, type Node, type YAMLMap } from 'yaml';
import type { CollectionToken, Item } from './document.js';
import { setScalarToken } from './scalars.js';

/** The CST item of a mapping's pair (by its key's token) or a sequence's element. */
export function itemOf(token: CollectionToken, node: Node): Item {
  const source = node.srcToken;
  const item = token.items.find((candidate) => candidate.key === source || candidate.value === source);
  if (!item) throw new Error('yaml: a node without its CST item');
  return item;
}

/** Removes the comment lines (not a comment on the line of the key) from an item's separator. */
export function removeCommentLines(sep: CST.SourceToken[]): void {
  const firstNewline = sep.findIndex((token) => token.type === 'newline');
  if (firstNewline === -1) return;
  for (let at = sep.length - 1; at > firstNewline; at--) {
    if (sep[at]!.type !== 'comment') continue;
    const from = sep[at - 1]?.type === 'space' && at - 1 > firstNewline ? at - 1 : at;
    const to = sep[at + 1]?.type === 'newline' ? at + 2 : at + 1;
    sep.splice(from, to - from);
    at = from;
  }
}

export function hasContent(item: Item): boolean {
  return item.key !== undefined || item.value !== undefined;
}

export function removeItems(token: CollectionToken, remove: Set<Item>): void {
  replaceItems(
    token,
    token.items.filter((item) => !remove.has(item)),
  );
}

/** Where a copy of an item came from (its layout is the original's). */
const copiedFrom = new WeakMap<Item, Item>();

/**
 * Sets a collection's items, keeping its layout where items moved: an item that becomes the
 * first of a block collection loses its indentation (the line before gives it), the first that
 * moves on gains it; in a flow collection every item but the first starts with a comma.
 */
export function replaceItems(token: CollectionToken, items: Item[]): void {
  const first = token.items[0];
  const indentation =
    token.items.slice(1).find((item) => item.start[0]?.type === 'space')?.start[0]?.source ??
    ' '.repeat(token.indent);
  token.items = items as never;
  items.forEach((item, index) => {
    const start = item.start;
    if (token.type === 'flow-collection') {
      const comma = start.findIndex((t) => t.type === 'comma');
      if (index === 0 && comma === 0) {
        start.shift();
        while (start[0]?.type === 'space') start.shift();
      } else if (index > 0 && comma === -1) {
        start.unshift(sourceToken('comma', ',', token.indent), sourceToken('space', ' ', token.indent));
      }
      return;
    }
    const wasFirst = (copiedFrom.get(item) ?? item) === first;
    if (index === 0 && !wasFirst && start[0]?.type === 'space') start.shift();
    else if (index > 0 && wasFirst && start[0]?.type !== 'space' && token.indent > 0) {
      start.unshift(sourceToken('space', indentation, 0));
    }
  });
}

/** A copy of `item` (a plural form) for another form: its key renamed, without its comments. */
export function cloneItem(token: CollectionToken, item: Item, key: string, text: string): Item {
  const copy = structuredClone(item);
  copiedFrom.set(copy, item);
  const lastNewline = copy.start.map((t) => t.type).lastIndexOf('newline');
  copy.start = copy.start.slice(lastNewline + 1).filter((t) => t.type !== 'comment');
  if (copy.key && CST.isScalar(copy.key)) CST.setScalarValue(copy.key, key, { implicitKey: true });
  const value = copy.value;
  if (value && CST.isScalar(value)) {
    if ('end' in value && value.end) {
      value.end = value.end.filter((t) => t.type === 'newline');
      if (token.type !== 'flow-collection' && value.end.length === 0) {
        value.end.push(sourceToken('newline', '\n', value.indent));
      }
    }
    setScalarToken(value, text, { inFlow: token.type === 'flow-collection' });
  }
  return copy;
}

export function sourceToken(type: CST.SourceToken['type'], source: string, indent: number): CST.SourceToken {
  return { type, offset: -1, indent, source };
}

/** A mapping left with no key: `{}` in its place, so the file still holds a mapping. */
export function emptyMap(map: YAMLMap): void {
  const token = map.srcToken as CollectionToken;
  if (token.type === 'flow-collection') {
    token.items = [];
    return;
  }
  const { offset, indent } = token;
  for (const key of Object.keys(token)) delete (token as unknown as Record<string, unknown>)[key];
  const flow: CST.FlowCollection = {
    type: 'flow-collection',
    offset,
    indent,
    start: sourceToken('flow-map-start', '{', indent),
    items: [],
    end: [sourceToken('flow-map-end', '}', indent), sourceToken('newline', '\n', indent)],
  };
  Object.assign(token, flow);
}
