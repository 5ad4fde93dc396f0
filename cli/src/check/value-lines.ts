/**
 * Where each key's value stands in a locale file, for `tolk check` to point at (DESIGN §14): a
 * 1-based line per flattened key of the file's locale document.
 *
 * - JSON files (`json`, `i18next`, `arb`, the old single file) are walked with `jsonc-parser`
 *   (already the JSON formats' parser), flattened as `parseSourceDocument` flattens them: nested
 *   names and array indexes joined with `.`, `@key` annotations and `@@` metadata left out, a
 *   dot that leaves an empty part of a name as the formats key it (U+2024).
 * - YAML files are walked with the `yaml` package's node ranges (a Rails file without its locale
 *   root, as its format reads it).
 * - An Xcode String Catalog points at the string's localization for the locale, else the string.
 * - The other formats name each key in the file in their own syntax (`name="key"`, `key=`,
 *   `msgid "key"`, `<trans-unit id="key">`): the first line that has the key (else its last
 *   segment) as a whole word is its line. Good enough to jump to; 1 when nothing is found.
 */
import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import type { FormatName } from '../formats/index.js';
import { escapeName } from '../formats/json-document.js';
import { jsonTree, STRICT_JSON } from '../formats/json-tree.js';

export type ValueLines = {
  /** The line of `key`'s value (a key of the file's own document, without namespace); 1 if unknown. */
  lineOf(key: string): number;
  /** Whether the key was found where the file's syntax puts it (not the fallback line). */
  has(key: string): boolean;
};

const BOM = '\uFEFF';

export function valueLines(
  text: string,
  format: FormatName,
  options: { locale: string; rails?: boolean },
): ValueLines {
  const source = text.startsWith(BOM) ? text.slice(BOM.length) : text;
  const starts = lineStarts(source);
  const lineAt = (offset: number) => lineOfOffset(starts, offset);
  let lines: Map<string, number>;
  switch (format) {
    case 'json':
    case 'i18next':
    case 'arb':
      lines = jsonLines(source, lineAt);
      break;
    case 'yaml':
      lines = yamlLines(source, options.rails === true);
      break;
    case 'xcstrings':
      return xcstringsLines(source, options.locale, lineAt);
    default:
      return searchedLines(source);
  }
  return { lineOf: (key) => lines.get(key) ?? 1, has: (key) => lines.has(key) };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0x0a) starts.push(i + 1);
  return starts;
}

function lineOfOffset(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

function jsonLines(text: string, lineAt: (offset: number) => number): Map<string, number> {
  const lines = new Map<string, number>();
  const root = parseTree(text);
  if (root?.type !== 'object') return lines;
  const walk = (node: JsonNode, path: string, top: boolean) => {
    if (node.type === 'object') {
      for (const property of node.children ?? []) {
        const [name, value] = property.children ?? [];
        if (!name || !value || typeof name.value !== 'string') continue;
        // Annotations and metadata are not keys (parseSourceDocument's rule).
        if (name.value.startsWith('@')) continue;
        // Named as the JSON formats name keys (`"Saved."` is `Saved․`).
        const segment = escapeName(name.value);
        walk(value, top ? segment : `${path}.${segment}`, false);
      }
    } else if (node.type === 'array') {
      (node.children ?? []).forEach((item, index) => walk(item, `${path}.${index}`, false));
    } else {
      lines.set(path, lineAt(node.offset));
    }
  };
  walk(root, '', true);
  return lines;
}

function yamlLines(text: string, rails: boolean): Map<string, number> {
  const lines = new Map<string, number>();
  const counter = new LineCounter();
  const document = parseDocument(text, { lineCounter: counter, uniqueKeys: false });
  const walk = (node: YamlNode | null | undefined, path: string[]) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const name = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (name === undefined) continue;
        const value = pair.value as YamlNode | null;
        // A mapping of plural categories is one key; its line is the mapping's first.
        if (isMap(value) && value.items.length > 0 && !isPluralMapping(value)) walk(value, [...path, name]);
        else if (isSeq(value)) walk(value, [...path, name]);
        else {
          const at = (value?.range ?? (pair.key as YamlNode).range)?.[0];
          if (at !== undefined) lines.set(keyOf([...path, name], rails), counter.linePos(at).line);
        }
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => {
        const value = item as YamlNode;
        if (isMap(value) || isSeq(value)) walk(value, [...path, String(index)]);
        else if (value?.range)
          lines.set(keyOf([...path, String(index)], rails), counter.linePos(value.range[0]).line);
      });
    }
  };
  walk(document.contents as YamlNode | null, []);
  return lines;
}

const PLURAL_KEYS = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

function isPluralMapping(map: { items: { key: unknown }[] }): boolean {
  const names = map.items.map((pair) => (isScalar(pair.key) ? String(pair.key.value) : ''));
  return names.includes('other') && names.length > 1 && names.every((name) => PLURAL_KEYS.has(name));
}

function keyOf(path: string[], rails: boolean): string {
  return (rails ? path.slice(1) : path).join('.');
}

function xcstringsLines(text: string, locale: string, lineAt: (offset: number) => number): ValueLines {
  // The catalog as its format read it: the tree of that read.
  const root = jsonTree(text, STRICT_JSON).tree;
  const find = (key: string) =>
    root &&
    (findNodeAtLocation(root, ['strings', key, 'localizations', locale]) ??
      findNodeAtLocation(root, ['strings', key]));
  return {
    lineOf: (key) => {
      const node = find(key);
      return node ? lineAt(node.offset) : 1;
    },
    has: (key) => find(key) !== undefined,
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function searchedLines(text: string): ValueLines {
  const lines = text.split('\n');
  const search = (word: string) => {
    if (word === '') return undefined;
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_.-])${escapeRegExp(word)}(?![\\p{L}\\p{N}_-])`, 'u');
    const index = lines.findIndex((line) => pattern.test(line));
    return index === -1 ? undefined : index + 1;
  };
  // Each key searched once: `has` and then `lineOf` of the same key are one search.
  const found = new Map<string, number | undefined>();
  const find = (key: string) => {
    if (!found.has(key)) found.set(key, search(key) ?? search(key.slice(key.lastIndexOf('.') + 1)));
    return found.get(key);
  };
  return { lineOf: (key) => find(key) ?? 1, has: (key) => find(key) !== undefined };
}
