/**
 * A target in the source's layout: the source's CST with the target's values, keys with no value
 * removed, plural hashes and i18next plural groups with the target's forms.
 */
import { parseSourceDocument, pluralCategories, type PluralGroup } from '@tolk/locale-file';
import { CST, isScalar, type Node, type Pair, type Scalar, type YAMLMap } from 'yaml';
import type { WriteInput } from '../format.js';
import { pluralBranches } from '../plural-message.js';
import {
  type CollectionToken,
  type Item,
  type Loaded,
  RAILS_INTERPOLATION,
  type Value,
  classify,
  join,
  keyName,
  load,
  spellLocale,
} from './document.js';
import { setScalar } from './scalars.js';
import { readMap } from './read.js';
import {
  cloneItem,
  emptyMap,
  hasContent,
  itemOf,
  removeCommentLines,
  removeItems,
  replaceItems,
} from './cst-items.js';

/** The target in the source's layout: the source's CST with the target's values. */
export function writeFromSource(input: WriteInput): Buffer {
  const loaded = load(input.source, '(source)', input.sourceLocale, input.options);
  if (loaded.localePair) {
    setScalar(loaded.localePair.key as Scalar, spellLocale(input.locale), { key: true });
  }
  if (loaded.keys) {
    const keys = parseSourceDocument(readMap(loaded, loaded.keys, '')).keys;
    const writer: Writer = {
      loaded,
      input,
      indexOf: new Map(keys.map((key, index) => [key, index])),
    };
    const root = loaded.document.contents as YAMLMap;
    const localeItem =
      loaded.localePair && itemOf(root.srcToken as CollectionToken, loaded.localePair.key as Node);
    if (!writeMap(writer, loaded.keys, '', localeItem)) emptyMap(loaded.keys);
  }
  return Buffer.from(loaded.tokens.map((token) => CST.stringify(token)).join(''), 'utf8');
}

type Writer = {
  loaded: Loaded;
  input: WriteInput;
  /** Source key → its index in the source document's keys (for i18next plural groups). */
  indexOf: Map<string, number>;
};

/**
 * Writes the target's values into `map`'s items, removing those with none (and the comments
 * above them). Returns whether anything is left in it.
 */
function writeMap(writer: Writer, map: YAMLMap, prefix: string, parent?: Item): boolean {
  const token = map.srcToken as CollectionToken;
  const { target } = writer.input;
  const remove = new Set<Item>();
  const regroup = new Map<PluralGroup, Pair[]>();
  for (const pair of map.items) {
    // A key that is no text was left out of the document: kept as it is.
    if (!isScalar(pair.key)) continue;
    const path = prefix + keyName(writer.loaded, pair);
    const value = classify(writer.loaded, pair.value, path);
    if (value.kind === 'text' && target.groups.length > 0) {
      const group = target.groupOfSource.get(writer.indexOf.get(path) ?? -1);
      if (group) {
        regroup.set(group, [...(regroup.get(group) ?? []), pair]);
        continue;
      }
    }
    const item = itemOf(token, pair.key as Node);
    if (!writeValue(writer, value, path, 'map', item)) remove.add(item);
  }
  for (const [group, pairs] of regroup) writeGroup(writer, token, group, pairs, prefix);
  // The comments above a nested mapping's first key are in its parent's item: they go with it.
  if (token.items[0] && remove.has(token.items[0]) && parent?.sep) removeCommentLines(parent.sep);
  if (remove.size > 0) removeItems(token, remove);
  return token.items.some(hasContent);
}

/** Writes one value; false when the target has nothing of it (its item is then removed). */
function writeValue(
  writer: Writer,
  value: Value,
  path: string,
  parent: 'map' | 'seq' | 'flow',
  item?: Item,
): boolean {
  const { valueOf } = writer.input;
  switch (value.kind) {
    case 'kept':
      return true;
    case 'text': {
      const text = valueOf(path);
      if (text === undefined) return false;
      if (text !== value.text) setScalar(value.node, text, { inFlow: parent === 'flow' });
      return true;
    }
    case 'plural': {
      const message = valueOf(path);
      if (message === undefined) return false;
      writePluralHash(writer, value, message);
      return true;
    }
    case 'map':
      return writeMap(writer, value.node, `${path}.`, item);
    case 'seq': {
      const token = value.node.srcToken as CollectionToken;
      const inFlow = token.type === 'flow-collection';
      return value.node.items.every((item, index) => {
        const element = classify(writer.loaded, item, join(path, String(index)));
        return writeValue(writer, element, join(path, String(index)), inFlow ? 'flow' : 'seq');
      });
    }
  }
}

/** A Rails plural hash with the target's categories, each with its branch of `message`. */
function writePluralHash(writer: Writer, value: Extract<Value, { kind: 'plural' }>, message: string): void {
  const token = value.node.srcToken as CollectionToken;
  const texts = pluralBranches(message, pluralCategories(writer.input.locale), RAILS_INTERPOLATION);
  const sourceOrder = value.branches.map(([category]) => category);
  const keep = sameSet(sourceOrder, [...texts.keys()]);
  // A form the source lacks is written as its `other` is (or its last form, without one).
  const other = (value.branches.find(([category]) => category === 'other') ?? value.branches.at(-1)!)[1];
  const items: Item[] = [];
  for (const category of keep ? sourceOrder : [...texts.keys()]) {
    const text = texts.get(category)!;
    const pair = value.branches.find(([c]) => c === category)?.[1];
    if (pair) {
      setScalar(pair.value as Scalar, text, { inFlow: token.type === 'flow-collection' });
      items.push(itemOf(token, pair.key as Node));
    } else {
      items.push(cloneItem(token, itemOf(token, other.key as Node), category, text));
    }
  }
  replaceItems(token, items);
}

/**
 * An i18next plural group (`item_one`, `item_other`) with the target's forms, at the place of
 * its first source form; a form the source lacks is a copy of the `_other` item. When the target
 * has only forms the source has, each stays at its place.
 */
function writeGroup(
  writer: Writer,
  token: CollectionToken,
  group: PluralGroup,
  pairs: Pair[],
  prefix: string,
): void {
  const { target, valueOf } = writer.input;
  const byKey = new Map(pairs.map((pair) => [prefix + keyName(writer.loaded, pair), pair]));
  const other = [...byKey].find(([key]) => key.endsWith('_other'))![1];
  const stem = keyName(writer.loaded, other).slice(0, -'other'.length);
  const forms: Item[] = [];
  for (const entry of target.formsOf.get(group)!) {
    const text = valueOf(entry.key);
    if (text === undefined) continue;
    const pair = byKey.get(entry.key);
    if (pair) {
      setScalar(pair.value as Scalar, text, { inFlow: token.type === 'flow-collection' });
      forms.push(itemOf(token, pair.key as Node));
    } else {
      forms.push(cloneItem(token, itemOf(token, other.key as Node), `${stem}${entry.category!}`, text));
    }
  }
  const sourceItems = new Set(pairs.map((pair) => itemOf(token, pair.key as Node)));
  const kept = new Set(forms);
  if (forms.every((form) => sourceItems.has(form))) {
    // Only the source's own forms: each stays where it is.
    replaceItems(
      token,
      token.items.filter((item) => !sourceItems.has(item) || kept.has(item)),
    );
    return;
  }
  const first = itemOf(token, pairs[0]!.key as Node);
  const items = token.items.flatMap((item) => (item === first ? forms : sourceItems.has(item) ? [] : [item]));
  replaceItems(token, items);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item) => b.includes(item));
}
