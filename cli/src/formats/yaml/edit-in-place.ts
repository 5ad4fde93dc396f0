/** A YAML target on disk edited in place to hold the target's values (DESIGN §16): `editInPlace`. */
import { CST, isScalar, type Node, type Pair, type YAMLMap } from 'yaml';
import { FormatError, keepsUnwritten, type WriteInput } from '../format.js';
import {
  type CollectionToken,
  type Item,
  type Loaded,
  type Value,
  classify,
  join,
  keyName,
  load,
} from './document.js';
import { emptyMap, hasContent, itemOf, removeCommentLines, replaceItems, sourceToken } from './cst-items.js';
import { setScalar } from './scalars.js';

type Editor = {
  /** The target file on disk, its CST edited. */
  target: Loaded;
  /** The target as written from the source: the values and keys it holds. */
  wanted: Loaded;
  /** The target file's line ending, for the lines written into it. */
  newline: string;
  /** Whether a key of the target that is not written stays as it is (keepsUnwritten). */
  keeps: (key: string) => boolean;
};

/**
 * The target file on disk (`existing`) edited to hold what `written` (the target in the source's
 * layout) holds, DESIGN §16; undefined when the file does not parse, its root is not the
 * target's locale or it holds no key (`de:` alone): the target is then written in the source's
 * layout.
 *
 * - A text that changed is set where it stands, in its scalar's style where that style can hold
 *   it (`setScalarToken`). A value that is not a text (Rails' `precision: 3`, an alias) is the
 *   target's own where the source's is not a text either.
 * - A key the target lacks is inserted after the nearest key before it in the source's order that
 *   the mapping has, else before the nearest one after it, else at the end of the mapping, at its
 *   neighbours' indentation, with the source's comment lines above it (the translator's context,
 *   as in a new file); a mapping the target lacks comes whole, in the source's layout.
 * - A key the target holds and the target's values do not is removed with the comment lines
 *   above it: a key of the source with no value, or one the source lacks that Tolk synced; one
 *   Tolk never synced stays as it is (WriteInput.synced), and a mapping no longer wanted keeps
 *   those of its keys. Keys Tolk does not read (`<<` merges, keys that are no text) stay.
 * - A value whose shape changed (a text become a plural hash, a sequence of another length) is
 *   replaced as a whole, its comments above kept; a flow mapping (`{ one: a, other: b }`) that
 *   gains a key too.
 * - The Rails locale key is the target's own (`pt_BR:` stays). Everything else is the file's own
 *   bytes: comments, blank lines, anchors, key order, line endings, a BOM, a missing final newline.
 */
export function editInPlace(existing: Buffer, written: Buffer, input: WriteInput): Buffer | undefined {
  let target: Loaded;
  let wanted: Loaded;
  try {
    target = load(existing, '(target)', input.locale, input.options);
    wanted = load(written, '(target)', input.locale, input.options);
  } catch (error) {
    if (error instanceof FormatError) return undefined;
    throw error;
  }
  if (!target.keys || !wanted.keys) return undefined;
  const text = target.tokens.map((token) => CST.stringify(token)).join('');
  const editor: Editor = {
    target,
    wanted,
    newline: text.includes('\r\n') ? '\r\n' : '\n',
    keeps: (key) => keepsUnwritten(input, key),
  };
  const root = target.document.contents as YAMLMap;
  const localeItem =
    target.localePair && itemOf(root.srcToken as CollectionToken, target.localePair.key as Node);
  if (!editMap(editor, target.keys, wanted.keys, '', localeItem)) return undefined;
  if (!(target.keys.srcToken as CollectionToken).items.some(hasContent)) emptyMap(target.keys);
  const out = target.tokens.map((token) => CST.stringify(token)).join('');
  return out === text ? existing : Buffer.from(out, 'utf8');
}

/** The keys a mapping holds that Tolk reads, by name (the last of a name given twice). */
function pairsByName(loaded: Loaded, map: YAMLMap): Map<string, Pair> {
  const pairs = new Map<string, Pair>();
  for (const pair of map.items) {
    if (!isScalar(pair.key)) continue;
    const name = keyName(loaded, pair);
    if (name === '<<' || name === '' || name.startsWith('@')) continue;
    pairs.delete(name);
    pairs.set(name, pair);
  }
  return pairs;
}

/**
 * Edits the target's mapping `map` (of flattened key `path`, '' at the root) to hold `wanted`'s
 * keys and values; with no `wanted`, to keep only the keys it keeps. False when it cannot be
 * edited in place (a flow mapping gaining or replacing a key): the caller replaces it whole.
 */
function editMap(
  editor: Editor,
  map: YAMLMap,
  wanted: YAMLMap | undefined,
  path: string,
  parent?: Item,
): boolean {
  const token = map.srcToken as CollectionToken;
  const wantedToken = wanted?.srcToken as CollectionToken;
  const flow = token.type === 'flow-collection';
  const ours = pairsByName(editor.target, map);
  const theirs = wanted ? pairsByName(editor.wanted, wanted) : new Map<string, Pair>();
  const ourItem = itemsByNode(token);
  const theirItem = wanted ? itemsByNode(wantedToken) : ourItem;
  const remove = new Set<Item>();
  const replaced = new Map<Item, Item>();
  const itemOfName = new Map<string, Item>();
  for (const [name, pair] of ours) {
    const item = ourItem(pair.key as Node);
    const other = theirs.get(name);
    if (!other) {
      // Not written: it stays, or the keys of it that stay, or it goes.
      const stays = staying(editor, pair.value, join(path, name));
      if (stays === 'none') remove.add(item);
      else if (stays === 'some') {
        // Only a mapping keeps some of its keys.
        if (!editMap(editor, pair.value as YAMLMap, undefined, join(path, name), item)) return false;
      }
      continue;
    }
    itemOfName.set(name, item);
    if (editValue(editor, pair.value, other.value, flow, join(path, name), item)) continue;
    if (flow) return false;
    const copy = renderedItem(editor, theirItem(other.key as Node), wantedToken, token, item);
    replaced.set(item, copy);
    itemOfName.set(name, copy);
  }
  // New keys: after the nearest key before them in the source's order that the mapping has,
  // else before the nearest one after them (the first the mapping has), else at its end.
  const leading: Item[] = [];
  const following = new Map<Item, Item[]>();
  let anchor: Item | undefined;
  let firstKept: Item | undefined;
  for (const [name, pair] of theirs) {
    const kept = itemOfName.get(name);
    if (kept) {
      anchor = kept;
      firstKept ??= kept;
      continue;
    }
    if (flow) return false;
    const item = renderedItem(editor, theirItem(pair.key as Node), wantedToken, token);
    if (!anchor) leading.push(item);
    else if (following.has(anchor)) following.get(anchor)!.push(item);
    else following.set(anchor, [item]);
  }
  // The comments above a nested mapping's first key are in its parent's item: they go with it.
  if (token.items[0] && remove.has(token.items[0]) && parent?.sep) removeCommentLines(parent.sep);
  const items: Item[] = [];
  for (const original of token.items) {
    if (remove.has(original)) continue;
    const item = replaced.get(original) ?? original;
    if (item === firstKept) items.push(...leading);
    items.push(item);
    const next = following.get(item);
    if (next) items.push(...lineBroken(editor, item, next));
  }
  if (!firstKept && leading.length > 0) {
    const at = items.findLastIndex(hasContent) + 1;
    items.splice(at, 0, ...(at > 0 ? lineBroken(editor, items[at - 1]!, leading) : leading));
  }
  // A blank line above the key that becomes a nested mapping's first stays above it: in its
  // parent's item, before the indentation the parent gives its first key.
  const first = items[0];
  if (first && first !== token.items[0] && parent?.sep && token.indent > 0) {
    const at = parent.sep.at(-1)?.type === 'space' ? parent.sep.length - 1 : parent.sep.length;
    const lines: CST.SourceToken[] = [];
    while (
      first.start[0]?.type === 'newline' ||
      (first.start[0]?.type === 'space' && first.start[1]?.type === 'newline')
    ) {
      lines.push(first.start.shift()!);
    }
    parent.sep.splice(at, 0, ...lines);
  }
  if (remove.size > 0 || leading.length > 0 || following.size > 0) replaceItems(token, items);
  return true;
}

/**
 * What of a value of the target at `path` that is not written stays (keepsUnwritten): all of it,
 * some of a mapping's keys, or none. A value Tolk does not read stays unless its own key is the
 * source's; a mapping goes when nothing in it stays.
 */
function staying(editor: Editor, node: unknown, path: string): 'all' | 'some' | 'none' {
  const value = classify(editor.target, node, '');
  if (value.kind === 'map' && value.node.items.length > 0) {
    const each = value.node.items.map((pair) => {
      const name = isScalar(pair.key) ? keyName(editor.target, pair) : '';
      // A key Tolk does not read (`<<`, no text) stays as it is.
      if (name === '<<' || name === '' || name.startsWith('@')) return 'all';
      return staying(editor, pair.value, join(path, name));
    });
    if (each.every((stays) => stays === 'all')) return 'all';
    return each.every((stays) => stays === 'none') ? 'none' : 'some';
  }
  const keys = keysOf(editor.target, node, path);
  return (keys.length > 0 ? keys : [path]).every(editor.keeps) ? 'all' : 'none';
}

/**
 * The flattened keys of a value of the target at `path`, as `read` makes them: a text or a plural
 * hash is one key, a mapping or sequence holds its elements'; what Tolk does not read is none.
 */
function keysOf(loaded: Loaded, node: unknown, path: string): string[] {
  const value = classify(loaded, node, '');
  switch (value.kind) {
    case 'text':
    case 'plural':
      return [path];
    case 'kept':
      return [];
    case 'map':
      return value.node.items.flatMap((pair) =>
        isScalar(pair.key) ? keysOf(loaded, pair.value, join(path, keyName(loaded, pair))) : [],
      );
    case 'seq':
      return value.node.items.flatMap((element, index) => keysOf(loaded, element, join(path, String(index))));
  }
}

/** The CST item of a collection's node (a mapping's key or a sequence's element), by a map. */
function itemsByNode(token: CollectionToken): (node: Node) => Item {
  const items = new Map<unknown, Item>();
  for (const item of token.items) items.set(item.key ?? item.value, item);
  return (node) => items.get(node.srcToken) ?? itemOf(token, node);
}

/**
 * New items after `previous`: after the last line of a file without a final line break, the
 * first of them starts with one instead of ending with one.
 */
function lineBroken(editor: Editor, previous: Item, items: Item[]): Item[] {
  if (CST.stringify(previous).endsWith('\n')) return items;
  const last = items.at(-1)!.key as CST.FlowScalar;
  last.source = last.source.slice(0, -editor.newline.length);
  items[0]!.start.unshift(sourceToken('newline', editor.newline, 0));
  return items;
}

/**
 * Edits the target's value `node` to hold `wanted`'s; false when it must be replaced whole (its
 * shape differs).
 */
function editValue(
  editor: Editor,
  node: unknown,
  wanted: unknown,
  inFlow: boolean,
  path: string,
  item?: Item,
): boolean {
  const ours = classify(editor.target, node, '');
  const theirs = classify(editor.wanted, wanted, '');
  if (ours.kind === 'kept' && theirs.kind === 'kept') return true;
  if (ours.kind === 'text' && theirs.kind === 'text') {
    if (ours.text !== theirs.text) {
      setScalar(ours.node, theirs.text, { inFlow });
      const token = ours.node.srcToken as CST.FlowScalar | CST.BlockScalar;
      if (token.type === 'block-scalar') {
        token.source = token.source.replace(/\r?\n/g, editor.newline);
        // A text's final line break, at the end of a file without one, is written: readers of
        // YAML (libyaml, as Ruby's Psych and PyYAML) read no break where the file ends.
        if (theirs.text.endsWith('\n') && !token.source.endsWith('\n')) token.source += editor.newline;
      }
    }
    return true;
  }
  const isMapping = (value: Value) => value.kind === 'map' || value.kind === 'plural';
  if (isMapping(ours) && isMapping(theirs)) {
    return editMap(editor, ours.node as YAMLMap, theirs.node as YAMLMap, path, item);
  }
  if (ours.kind === 'seq' && theirs.kind === 'seq' && ours.node.items.length === theirs.node.items.length) {
    const flow = (ours.node.srcToken as CollectionToken).type === 'flow-collection';
    return ours.node.items.every((element, index) => {
      const other = theirs.node.items[index];
      const a = classify(editor.target, element, '');
      const b = classify(editor.wanted, other, '');
      // Only texts and kept values element by element; anything else replaces the sequence.
      if (!((a.kind === 'text' || a.kind === 'kept') && (b.kind === 'text' || b.kind === 'kept')))
        return false;
      return editValue(editor, element, other, flow, join(path, String(index)));
    });
  }
  return false;
}

/**
 * The wanted mapping's `item` as a new item of the target's mapping `token`, re-indented to its
 * keys' column, in the target's line endings, with the source's comment lines above it. With
 * `replacing`, it takes that item's place: the target's comments above it stay, and its final
 * line break (or none).
 */
function renderedItem(
  editor: Editor,
  item: Item,
  from: CollectionToken,
  to: CollectionToken,
  replacing?: Item,
): Item {
  const layout = (t: CST.SourceToken) => t.type === 'space' || t.type === 'comment' || t.type === 'newline';
  // A new key comes with the source's comment lines above it; a replaced one keeps the target's.
  const lead = item.start.findIndex((t) => t.type !== 'space' && t.type !== 'newline');
  const start = replacing
    ? item.start.filter((t) => !layout(t))
    : item.start.slice(lead === -1 ? item.start.length : lead);
  let text = CST.stringify({ ...item, start });
  const shift = columnOf(to) - columnOf(from);
  text = text
    .split('\n')
    .map((line, index) => {
      if (index === 0 || line.replace(/\r$/, '') === '') return line;
      if (shift >= 0) return ' '.repeat(shift) + line;
      const spaces = /^ */.exec(line)![0].length;
      return line.slice(Math.min(spaces, -shift));
    })
    .join('\n')
    .replace(/\r?\n/g, editor.newline);
  if (!text.endsWith('\n')) text += editor.newline;
  if (replacing && !CST.stringify(replacing).endsWith('\n')) text = text.slice(0, -editor.newline.length);
  const raw: CST.FlowScalar = { type: 'scalar', offset: -1, indent: to.indent, source: text };
  // Its indentation: the line before gives it to the first item of a nested mapping (replaceItems).
  const indentation = to.indent > 0 ? [sourceToken('space', ' '.repeat(to.indent), 0)] : [];
  return { start: replacing ? replacing.start : indentation, key: raw } as Item;
}

/** The column a block mapping's keys start at. */
function columnOf(token: CollectionToken): number {
  return token.indent;
}
