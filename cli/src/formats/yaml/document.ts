/**
 * A YAML locale file parsed (`load`): its CST, the Document composed from it, and what each value
 * is to Tolk (`classify`); with the helpers that name keys and report findings at their place.
 */
import { parseTargetLocale } from '@tolk/contracts';
import { isPluralCategory, type PluralCategory } from '@tolk/locale-file';
import {
  CST,
  Composer,
  LineCounter,
  Parser,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Document,
  type Node,
  type Pair,
  type Scalar,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { addFinding, FormatError, type FormatOptions, type ReadInput, type FileFinding } from '../format.js';
import type { Interpolation } from '../plural-message.js';
import { decodeUtf8 } from '../utf8.js';

/** Rails' `%{name}`: kept as text in ICU branches, where ICU reads `{name}` as the argument. */
export const RAILS_INTERPOLATION: Interpolation = { prefix: '%' };
/** The argument of a plural hash's ICU message: Rails' `count`. */
export const COUNT = 'count';

export type CollectionToken = CST.BlockMap | CST.BlockSequence | CST.FlowCollection;
export type Item = CollectionToken['items'][number];

/** A YAML file parsed: its CST (edited by `write`) and the Document composed from it. */
export type Loaded = {
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
export type Value =
  | { kind: 'text'; node: Scalar; text: string }
  | { kind: 'kept' }
  | { kind: 'plural'; node: YAMLMap; branches: [PluralCategory, Pair][] }
  | { kind: 'map'; node: YAMLMap }
  | { kind: 'seq'; node: YAMLSeq };

export function load(
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
      `a Rails locale file has one root key, its locale (${spellLocale(locale)}:); ${found}`,
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

/** Rails and YAML apps name files by BCP 47 codes: `pt-BR.yml`, `zh-Hant.yml`. */
export function spellLocale(locale: string): string {
  return locale;
}

/** A Rails root key as a canonical locale: `pt-BR`, also `pt_BR` as some apps write it. */
function railsLocale(name: string): string | undefined {
  const parsed = parseTargetLocale(name.replaceAll('_', '-'));
  return parsed.ok ? parsed.locale : undefined;
}

/** The name of a mapping's key as the document has it: its text, as written for a plain `1:`. */
export function keyName(loaded: Loaded, pair: Pair): string {
  const key = pair.key;
  if (!isScalar(key)) throw problemAt(loaded, key, 'a key must be a text, not a mapping or a sequence');
  if (typeof key.value === 'string') return key.value;
  const token = key.srcToken;
  return token && token.type === 'scalar' ? token.source : String(key.value);
}

export function classify(loaded: Loaded, node: unknown, path: string): Value {
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

/** A property of a plain object, `__proto__` included. */
export function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

export function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

export function shown(path: string): string {
  return path === '' ? 'the file' : JSON.stringify(path);
}

function position(lines: LineCounter, offset: number): { line: number; column: number } {
  const { line, col } = lines.linePos(offset);
  return { line, column: col };
}

export function rangeOf(node: unknown): number | undefined {
  return (node as { range?: [number, number, number] | null } | null)?.range?.[0];
}

function problemAt(loaded: Loaded, node: unknown, reason: string): FormatError {
  return new FormatError(loaded.path, reason, position(loaded.lines, rangeOf(node) ?? 0));
}

/** A finding of the file being read, at `offset` (the start of the file when unknown). */
export function finding(
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
