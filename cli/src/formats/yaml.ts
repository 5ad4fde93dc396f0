/**
 * `yaml`: a nested YAML locale file, plain (`locales/en.yml`) or Rails (`config/locales/en.yml`,
 * the locale as the one root key: `en:`), DESIGN §12.
 *
 * Read and written with the `yaml` package. The file is parsed once into its concrete syntax tree
 * (CST, every byte of the file) and composed from it into a Document whose nodes point back at
 * their CST tokens (`keepSourceTokens`). Reading walks the Document. Writing edits the source's
 * CST in place, each changed scalar through `CST.setScalarValue` (which keeps the scalar's style),
 * removes the items of keys with no value, and prints the CST back: what is not changed is the
 * source's own bytes, comments, blank lines, quoting and block scalars included. (Printing the
 * Document itself would re-flow it: long lines folded, spacing after `:` normalised.) A target
 * on disk is then edited in place to hold what that gives (`editInPlace`, DESIGN §16).
 *
 * - Comments before a key and after its value on the same line are its context (`@key`
 *   description); in a Rails file, the comments above the locale key are the file's, not a key's.
 * - A mapping whose keys are CLDR plural categories, `other` and at least one more (Rails'
 *   `one:` / `other:`, also go-i18n's, Hugo's and i18n-js's YAML), is one key whose value is an
 *   ICU plural message on `count`, and is written back with the target's categories. This is for
 *   plain YAML too: no YAML localisation library gives such a mapping another meaning. In a Rails
 *   file, `other:` alone (Japanese) is a plural too, and so are two or more categories without
 *   `other`: their forms are kept, and the missing `other` is an error finding (Rails raises
 *   for a count no form covers).
 * - Rails files are read as Ruby reads them, YAML 1.1 (`no` is false). Their values that are not
 *   text (`number.format.precision: 2`, `significant: false`, `~` in `abbr_day_names`, Ruby
 *   symbols `:year` in `date.order`) are Rails' own settings: they are kept as they are in every
 *   target and never sent for translation. In a plain YAML file such a value is a finding and
 *   left out: a locale file holds texts, and a number or boolean there is most often text that
 *   lost its quotes.
 * - A changed value keeps its scalar's style where that style can hold it: a plain scalar that
 *   would read as something else than the text (`yes`, `12`, `:)`, or a line break) is written
 *   double-quoted, checked against both YAML 1.1 (Ruby, PyYAML) and 1.2 readers.
 * - A sequence with an element missing in the target is left out as a whole: the elements after
 *   a gap would shift to other indexes.
 * - What YAML allows and Tolk does not expect is a finding at its place, and the rest is read
 *   (DESIGN §15): a key given twice (the last value is kept, as Ruby's Psych and PyYAML keep it),
 *   an alias (`*name`: it stays as it is in targets, sharing the text of its anchor, which is
 *   translated where it stands; aliases are never expanded, so anchors that would expand
 *   without bound cost nothing), a merge key (`<<: *defaults`), a tag the core schema does not
 *   know, a key that is no text or cannot be a key, several documents (the first is read, as
 *   Ruby reads it).
 * - Refused (the file does not parse): a YAML syntax error, and for Rails a root that is not one
 *   key naming the file's locale.
 */
import { parseTargetLocale } from '@tolk/contracts';
import {
  isPluralCategory,
  parseSourceDocument,
  pluralCategories,
  type PluralCategory,
  type PluralGroup,
} from '@tolk/locale-file';
import {
  CST,
  Composer,
  LineCounter,
  Parser,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  parseDocument,
  type Document,
  type Node,
  type Pair,
  type Scalar,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import {
  addFinding,
  FormatError,
  keepsUnwritten,
  type FormatOptions,
  type LocaleFormat,
  type ReadInput,
  type WriteInput,
  type FileFinding,
} from './format.js';
import { icuPluralMessage, pluralBranches, type Interpolation } from './plural-message.js';
import { decodeUtf8 } from './utf8.js';

/** Rails' `%{name}`: kept as text in ICU branches, where ICU reads `{name}` as the argument. */
const RAILS_INTERPOLATION: Interpolation = { prefix: '%' };
/** The argument of a plural hash's ICU message: Rails' `count`. */
const COUNT = 'count';

type CollectionToken = CST.BlockMap | CST.BlockSequence | CST.FlowCollection;
type Item = CollectionToken['items'][number];

/** A YAML file parsed: its CST (edited by `write`) and the Document composed from it. */
type Loaded = {
  path: string;
  rails: boolean;
  tokens: CST.Token[];
  document: Document.Parsed;
  lines: LineCounter;
  /** The mapping the keys are in: the root, or in a Rails file the locale key's value. */
  keys: YAMLMap | undefined;
  /** Rails: the pair of the locale key. */
  localePair: Pair | undefined;
  /** Where findings go when the file is read (not when a target is written from it). */
  report: { path: string; findings?: FileFinding[] } | undefined;
};

/** What a value of the file is to Tolk. */
type Value =
  | { kind: 'text'; node: Scalar; text: string }
  | { kind: 'kept' }
  | { kind: 'plural'; node: YAMLMap; branches: [PluralCategory, Pair][] }
  | { kind: 'map'; node: YAMLMap }
  | { kind: 'seq'; node: YAMLSeq };

export const yamlFormat: LocaleFormat = {
  name: 'yaml',
  extensions: ['.yml', '.yaml'],
  // Rails and YAML apps name files by BCP 47 codes: `pt-BR.yml`, `zh-Hant.yml`.
  spellLocale: (locale) => locale,
  readLocale(spelled) {
    const parsed = parseTargetLocale(spelled);
    return parsed.ok ? parsed.locale : undefined;
  },
  read: readYaml,
  write: writeYaml,
};

function readYaml(input: ReadInput): Record<string, unknown> {
  const loaded = load(input.bytes, input.path, input.locale, input.options, input);
  const document = loaded.keys ? readMap(loaded, loaded.keys, '') : {};
  return document;
}

function writeYaml(input: WriteInput): Buffer {
  const written = writeFromSource(input);
  if (!input.existing) return written;
  return editInPlace(input.existing, written, input) ?? written;
}

/** The target in the source's layout: the source's CST with the target's values. */
function writeFromSource(input: WriteInput): Buffer {
  const loaded = load(input.source, '(source)', input.sourceLocale, input.options);
  if (loaded.localePair) {
    setScalar(loaded.localePair.key as Scalar, yamlFormat.spellLocale(input.locale), { key: true });
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

// ---- reading the file --------------------------------------------------------------------

function load(
  bytes: Buffer,
  path: string,
  locale: string,
  options: FormatOptions,
  report?: ReadInput,
): Loaded {
  const rails = options.rails === true;
  // The byte order mark stays in the text: the parser keeps it as a token of the file.
  const text = decodeUtf8(bytes, path, 'YAML files are UTF-8');
  const lines = new LineCounter();
  const tokens = Array.from(new Parser(lines.addNewLine).parse(text));
  // Ruby reads YAML 1.1 (`no` and `on` are booleans, `0777` is octal); JavaScript readers 1.2.
  // Keys given twice are found in readMap: the composer's own check is quadratic in a mapping's size.
  const composer = new Composer({
    keepSourceTokens: true,
    version: rails ? '1.1' : '1.2',
    uniqueKeys: false,
  });
  const documents = Array.from(composer.compose(tokens, true));
  const document = documents[0]!;
  const loaded: Loaded = {
    path,
    rails,
    tokens,
    document,
    lines,
    keys: undefined,
    localePair: undefined,
    report: report && { path, ...(report.findings ? { findings: report.findings } : {}) },
  };
  for (const problem of document.errors) {
    throw new FormatError(path, problem.message.split('\n')[0]!, position(lines, problem.pos[0]));
  }
  for (const problem of document.warnings) {
    finding(loaded, null, 'format', problem.message.split('\n')[0]!, problem.pos[0]);
  }
  if (documents.length > 1) {
    const second = documents[1]!.contents?.range[0] ?? text.length;
    finding(
      loaded,
      null,
      'format',
      'holds several YAML documents (---); the first is read, as Ruby and YAML libraries read a file',
      second,
    );
  }
  const root = document.contents;
  if (root === null || (isScalar(root) && root.value === null && !root.anchor)) return loaded;
  if (!isMap(root)) throw problemAt(loaded, root, 'the file must be a mapping of keys');
  if (!rails) {
    loaded.keys = root as YAMLMap;
    return loaded;
  }
  const localePair = root.items[0] as Pair<Scalar, Node | null>;
  const named = root.items.length === 1 ? railsLocale(keyName(loaded, localePair)) : undefined;
  if (named !== locale) {
    const keys = root.items.map((pair) => keyName(loaded, pair as Pair<Scalar>));
    const found =
      keys.length === 1 ? `its root key is ${JSON.stringify(keys[0])}` : `it has ${keys.length} root keys`;
    throw problemAt(
      loaded,
      root,
      `a Rails locale file has one root key, its locale (${yamlFormat.spellLocale(locale)}:); ${found}`,
    );
  }
  loaded.localePair = localePair;
  const value = localePair.value;
  if (value === null || (isScalar(value) && value.value === null)) return loaded;
  if (!isMap(value))
    throw problemAt(loaded, value, `the locale key ${keyName(loaded, localePair)} must hold a mapping`);
  loaded.keys = value as YAMLMap;
  return loaded;
}

/** A Rails root key as a canonical locale: `pt-BR`, also `pt_BR` as some apps write it. */
function railsLocale(name: string): string | undefined {
  const parsed = parseTargetLocale(name.replaceAll('_', '-'));
  return parsed.ok ? parsed.locale : undefined;
}

/** The name of a mapping's key as the document has it: its text, as written for a plain `1:`. */
function keyName(loaded: Loaded, pair: Pair): string {
  const key = pair.key;
  if (!isScalar(key)) throw problemAt(loaded, key, 'a key must be a text, not a mapping or a sequence');
  if (typeof key.value === 'string') return key.value;
  const token = key.srcToken;
  return token && token.type === 'scalar' ? token.source : String(key.value);
}

function classify(loaded: Loaded, node: unknown, path: string): Value {
  if (isAlias(node)) {
    finding(
      loaded,
      path,
      'format',
      `${shown(path)} is the alias *${node.source}: it is kept as it is, sharing the text (and the translation) of &${node.source}`,
      node.range?.[0],
    );
    return { kind: 'kept' };
  }
  const tag = (node as { tag?: string } | null)?.tag;
  if (tag !== undefined && !tag.startsWith('tag:yaml.org,2002:')) {
    finding(
      loaded,
      path,
      'format',
      `${shown(path)} has the tag ${tag}, which Tolk does not read; left out`,
      rangeOf(node),
    );
    return { kind: 'kept' };
  }
  if (isScalar(node)) {
    if (typeof node.value === 'string' && !isRubySymbol(loaded, node)) {
      return { kind: 'text', node, text: node.value };
    }
    // YAML 1.1 makes a plain `y` or `n` a boolean; Ruby's Psych reads them as text.
    const source = node.srcToken?.type === 'scalar' ? node.srcToken.source : undefined;
    if (loaded.rails && typeof node.value === 'boolean' && source && /^[yn]$/i.test(source)) {
      return { kind: 'text', node, text: source };
    }
    if (loaded.rails) return { kind: 'kept' };
    const what = node.value === null ? 'empty (null)' : `a ${typeof node.value}`;
    finding(
      loaded,
      path,
      'format',
      `${shown(path)} is ${what}, not a text: a locale file holds texts; quote it if it is one ("${String(node.source ?? node.value ?? '')}"); left out`,
      rangeOf(node),
    );
    return { kind: 'kept' };
  }
  if (node === null || node === undefined) {
    if (!loaded.rails)
      finding(loaded, path, 'format', `${shown(path)} has no value; write "" for an empty text; left out`);
    return { kind: 'kept' };
  }
  if (isSeq(node)) return { kind: 'seq', node: node as YAMLSeq };
  if (!isMap(node)) {
    finding(
      loaded,
      path,
      'format',
      `${shown(path)}: a YAML node Tolk does not read; left out`,
      rangeOf(node),
    );
    return { kind: 'kept' };
  }
  const map = node as YAMLMap;
  const branches: [PluralCategory, Pair][] = [];
  for (const pair of map.items) {
    const name = isScalar(pair.key) ? pair.key.value : undefined;
    if (typeof name !== 'string' || !isPluralCategory(name) || !isScalar(pair.value)) break;
    if (typeof pair.value.value !== 'string') break;
    if (branches.some(([category]) => category === name)) break;
    branches.push([name, pair as Pair]);
  }
  const hasOther = branches.some(([category]) => category === 'other');
  const all = branches.length === map.items.length;
  // Plain YAML may use category names as keys of its own (`one:` and `two:` of a list of steps);
  // a Rails file's mapping of categories is a plural hash, `other:` alone (Japanese) included.
  const plural =
    all && (loaded.rails ? branches.length >= (hasOther ? 1 : 2) : hasOther && branches.length >= 2);
  if (plural && !hasOther) {
    finding(
      loaded,
      path,
      'plural',
      `the plural hash ${shown(path)} has no "other", which every language uses (Rails raises for a count no form covers); its forms are kept`,
      rangeOf(map),
      'error',
    );
  }
  return plural ? { kind: 'plural', node: map, branches } : { kind: 'map', node: map };
}

/** A plain `:year` in a Rails file: a Ruby symbol, as Rails' `date.order` uses them. */
function isRubySymbol(loaded: Loaded, node: Scalar): boolean {
  return loaded.rails && node.type === 'PLAIN' && /^:[^\s:]/.test(String(node.value));
}

function readMap(loaded: Loaded, map: YAMLMap, prefix: string): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const seen = new Map<string, number>();
  map.items.forEach((pair, index) => {
    if (!isScalar(pair.key)) {
      finding(
        loaded,
        prefix.slice(0, -1),
        'format',
        'a key that is a mapping or a sequence, not a text; left out',
        rangeOf(pair.key),
      );
      return;
    }
    const name = keyName(loaded, pair);
    const path = prefix + name;
    if (name === '<<' && isAlias(pair.value)) {
      finding(
        loaded,
        path,
        'format',
        `merges *${pair.value.source} into ${shown(prefix.slice(0, -1))}: the keys it merges are not read here, and the merge is kept as it is`,
        rangeOf(pair.key),
      );
      return;
    }
    if (name === '' || name.startsWith('@')) {
      finding(
        loaded,
        path,
        'format',
        `the key ${JSON.stringify(name)} cannot be a key of a locale document (empty, or starting with @, which marks annotations); left out`,
        rangeOf(pair.key),
      );
      return;
    }
    const at = rangeOf(pair.key);
    const first = seen.get(name);
    if (first !== undefined) {
      finding(
        loaded,
        path,
        'duplicate',
        `the key ${JSON.stringify(name)} is given twice in one mapping (first on line ${first}); the last value is kept, as Ruby and YAML libraries keep it`,
        at,
      );
      delete object[name];
      delete object[`@${name}`];
    }
    seen.set(name, at === undefined ? 1 : loaded.lines.linePos(at).line);
    const value = readValue(loaded, pair.value, path);
    if (value === undefined) return;
    define(object, name, value);
    const description = commentOf(map, pair, index, loaded);
    if (description) define(object, `@${name}`, { description });
  });
  return object;
}

function readValue(loaded: Loaded, node: unknown, path: string): unknown {
  const value = classify(loaded, node, path);
  switch (value.kind) {
    case 'text':
      return value.text;
    case 'kept':
      return undefined;
    case 'plural':
      return icuPluralMessage(
        COUNT,
        value.branches.map(([category, pair]) => [category, (pair.value as Scalar<string>).value]),
        RAILS_INTERPOLATION,
      );
    case 'map': {
      const object = readMap(loaded, value.node, `${path}.`);
      return Object.keys(object).length > 0 ? object : undefined;
    }
    case 'seq': {
      const elements: unknown[] = [];
      let gaps = false;
      value.node.items.forEach((item, index) => {
        const element = readValue(loaded, item, join(path, String(index)));
        if (element === undefined) gaps = true;
        elements.push(element);
      });
      if (!gaps) return elements;
      // Elements that are not texts (Rails' `[~, Sun, Mon]`) keep the others at their indexes.
      const object: Record<string, unknown> = {};
      elements.forEach((element, index) => {
        if (element !== undefined) define(object, String(index), element);
      });
      return Object.keys(object).length > 0 ? object : undefined;
    }
  }
}

/** The comments of a key: above it (for a mapping's first key, above the mapping) and after it. */
function commentOf(map: YAMLMap, pair: Pair, index: number, loaded: Loaded): string | undefined {
  const parts: (string | null | undefined)[] = [];
  if (index === 0 && map !== loaded.document.contents) parts.push(map.commentBefore);
  if (isScalar(pair.key) || isMap(pair.key) || isSeq(pair.key)) parts.push(pair.key.commentBefore);
  // A mapping's own commentBefore is above its first key, which it goes to.
  if (isScalar(pair.value)) parts.push(pair.value.commentBefore, pair.value.comment);
  const lines = parts
    .filter((part): part is string => typeof part === 'string')
    .flatMap((part) => part.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.length > 0 ? lines.join('\n') : undefined;
}

// ---- writing a target ----------------------------------------------------------------------

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

/** The CST item of a mapping's pair (by its key's token) or a sequence's element. */
function itemOf(token: CollectionToken, node: Node): Item {
  const source = node.srcToken;
  const item = token.items.find((candidate) => candidate.key === source || candidate.value === source);
  if (!item) throw new Error('yaml: a node without its CST item');
  return item;
}

/** Removes the comment lines (not a comment on the line of the key) from an item's separator. */
function removeCommentLines(sep: CST.SourceToken[]): void {
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

function hasContent(item: Item): boolean {
  return item.key !== undefined || item.value !== undefined;
}

function removeItems(token: CollectionToken, remove: Set<Item>): void {
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
function replaceItems(token: CollectionToken, items: Item[]): void {
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
function cloneItem(token: CollectionToken, item: Item, key: string, text: string): Item {
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

function sourceToken(type: CST.SourceToken['type'], source: string, indent: number): CST.SourceToken {
  return { type, offset: -1, indent, source };
}

/** A mapping left with no key: `{}` in its place, so the file still holds a mapping. */
function emptyMap(map: YAMLMap): void {
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

// ---- editing a target on disk in place ------------------------------------------------------

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
function editInPlace(existing: Buffer, written: Buffer, input: WriteInput): Buffer | undefined {
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

// ---- scalars -------------------------------------------------------------------------------

const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;

function setScalar(node: Scalar, value: string, context: { key?: boolean; inFlow?: boolean }): void {
  if (node.value === value) return;
  const token = node.srcToken as CST.FlowScalar | CST.BlockScalar | undefined;
  if (!token) throw new Error('yaml: a scalar without its CST token');
  setScalarToken(token, value, context);
  node.value = value;
}

/**
 * A scalar token's text set to `value` in the token's own style where it can hold it: a block
 * scalar (`|`, `>`) stays one, at its body's indentation; a quoted or plain scalar stays on one
 * line, and becomes double-quoted (JSON's escapes, which YAML's double quotes share) when it
 * holds a line break or a plain scalar would read as something else.
 */
function setScalarToken(
  token: CST.FlowScalar | CST.BlockScalar,
  value: string,
  context: { key?: boolean; inFlow?: boolean },
): void {
  // A block scalar whose text starts with a space or a line break needs an indentation
  // indicator relative to its parent's indentation, which the CST does not give: quoted instead.
  if (token.type === 'block-scalar' && /^\S/.test(value)) {
    const header = token.props[0];
    const folded = header?.type === 'block-scalar-header' && header.source.startsWith('>');
    const indent = /^( *)\S/m.exec(token.source)?.[1]?.length;
    const saved = token.indent;
    if (indent !== undefined) token.indent = indent;
    CST.setScalarValue(token, value, {
      type: folded ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL',
      afterKey: indent === undefined,
    });
    if (token.type === 'block-scalar') token.indent = saved;
    return;
  }
  const options = { implicitKey: context.key === true, inFlow: context.inFlow === true };
  if (token.type === 'double-quoted-scalar' || token.type === 'block-scalar' || LINE_BREAK.test(value)) {
    CST.setScalarValue(token, value, { ...options, type: 'QUOTE_DOUBLE' });
    (token as CST.FlowScalar).source = doubleQuoted(value);
    return;
  }
  CST.setScalarValue(token, value, { ...options, type: token.type === 'scalar' ? 'PLAIN' : 'QUOTE_SINGLE' });
  const written = token as CST.FlowScalar;
  // PyYAML refuses a tab in a plain scalar, which YAML allows.
  if (written.type === 'scalar' && (value.includes('\t') || !readsAsText(written.source, value))) {
    CST.setScalarValue(token, value, { ...options, type: 'QUOTE_DOUBLE' });
    written.source = doubleQuoted(value);
  }
}

/** A YAML double-quoted scalar on one line: JSON's string, also escaping YAML 1.1's line breaks. */
function doubleQuoted(value: string): string {
  return JSON.stringify(value).replace(
    /[\u0085\u2028\u2029\u007f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Whether a plain scalar reads back as the text itself for both YAML 1.1 (Ruby, PyYAML: `yes`,
 * `on`, `2024-01-01`, `1:30`) and 1.2 readers, and for Ruby is no symbol (`:foo`).
 */
function readsAsText(source: string, value: string): boolean {
  if (source.startsWith(':') || source === '<<' || source === '=') return false;
  return (['1.1', '1.2'] as const).every((version) => {
    const document = parseDocument(source, { version });
    return document.errors.length === 0 && document.toJS() === value;
  });
}

// ---- helpers -------------------------------------------------------------------------------

/** A property of a plain object, `__proto__` included. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item) => b.includes(item));
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

function shown(path: string): string {
  return path === '' ? 'the file' : JSON.stringify(path);
}

function position(lines: LineCounter, offset: number): { line: number; column: number } {
  const { line, col } = lines.linePos(offset);
  return { line, column: col };
}

function rangeOf(node: unknown): number | undefined {
  return (node as { range?: [number, number, number] | null } | null)?.range?.[0];
}

function problemAt(loaded: Loaded, node: unknown, reason: string): FormatError {
  return new FormatError(loaded.path, reason, position(loaded.lines, rangeOf(node) ?? 0));
}

/** A finding of the file being read, at `offset` (the start of the file when unknown). */
function finding(
  loaded: Loaded,
  key: string | null,
  kind: FileFinding['kind'],
  message: string,
  offset?: number,
  severity: FileFinding['severity'] = 'warning',
): void {
  if (!loaded.report) return;
  addFinding(loaded.report, {
    key: key === null || key === '' ? null : key,
    kind,
    severity,
    message,
    ...position(loaded.lines, offset ?? 0),
  });
}
