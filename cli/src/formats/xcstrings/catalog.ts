/**
 * A String Catalog parsed into a tree that keeps the file's own order and spelling (`load`), with
 * its findings at their places, and the accessors and builders of that tree.
 */
import { DEFAULT_SOURCE_LIMITS } from '@tolk/locale-file';
import { printParseErrorCode, type Node } from 'jsonc-parser';
import { bcp47Spelling } from '../bcp47-spelling.js';
import { addFinding, FormatError, type FileFinding, type ReadInput } from '../format.js';
import { checkJsonDepth } from '../json-document.js';
import { jsonTree, STRICT_JSON } from '../json-tree.js';
import { keyOfName, nameProblem } from '../key-names.js';
import { decodeUtf8 } from '../utf8.js';

/** The `version` values of String Catalogs Xcode writes (15 and later: 1.0; 26: 1.1). */
export const KNOWN_VERSIONS = ['1.0', '1.1'] as const;

export const spelling = bcp47Spelling('-');
export const BOM = '\uFEFF';

/** A JSON value as the file holds it: objects keep their order, scalars their spelling. */
export type JsonValue =
  | { kind: 'scalar'; raw: string; value: string | number | boolean | null; offset: number }
  | { kind: 'object'; entries: JsonEntry[]; offset: number }
  | { kind: 'array'; items: JsonValue[]; offset: number };
export type JsonEntry = { key: string; rawKey: string; value: JsonValue; offset: number };
export type JsonObject = Extract<JsonValue, { kind: 'object' }>;

export type Catalog = {
  text: string;
  path: string;
  bom: boolean;
  /** What follows the root's closing brace (Xcode: nothing). */
  trailing: string;
  root: JsonObject;
  sourceLanguage: string;
  strings: JsonObject;
  /** Where findings go when the catalog is read for a locale (not when a target is written). */
  report: Pick<ReadInput, 'path' | 'findings'> | undefined;
};

export function finding(
  catalog: Pick<Catalog, 'text' | 'report'>,
  key: string | null,
  kind: FileFinding['kind'],
  message: string,
  offset: number,
  severity: FileFinding['severity'] = 'warning',
): void {
  if (catalog.report)
    addFinding(catalog.report, { key, kind, severity, message, ...positionOf(catalog.text, offset) });
}

function positionOf(text: string, offset: number) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function fail(catalog: { text: string; path: string }, reason: string, offset?: number): never {
  throw new FormatError(
    catalog.path,
    reason,
    offset === undefined ? undefined : positionOf(catalog.text, offset),
  );
}

type Reading = { text: string; path: string; report: Catalog['report'] };

/** `role`: the root (whose `strings` are the catalog's), the catalog's strings, or any other value. */
function valueOfNode(
  node: Node,
  text: string,
  file: Reading,
  role: 'root' | 'strings' | 'other' = 'other',
): JsonValue {
  const inStrings = role === 'strings';
  if (node.type === 'object') {
    const entries: JsonEntry[] = [];
    const seen = new Map<string, number>();
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (!keyNode || !valueNode) fail(file, 'a property has no value', property.offset);
      const key = keyNode.value as string;
      const first = seen.get(key);
      if (first !== undefined) {
        finding(
          file,
          inStrings && !nameProblem(key) ? keyOfName(key) : null,
          'duplicate',
          `the key ${JSON.stringify(key)} is given twice in one object (first on line ${positionOf(text, first).line}); the last is kept, as Foundation's JSON reader keeps it`,
          keyNode.offset,
        );
        entries.splice(
          entries.findIndex((entry) => entry.key === key),
          1,
        );
      }
      seen.set(key, keyNode.offset);
      entries.push({
        key,
        rawKey: text.slice(keyNode.offset, keyNode.offset + keyNode.length),
        value: valueOfNode(valueNode, text, file, role === 'root' && key === 'strings' ? 'strings' : 'other'),
        offset: keyNode.offset,
      });
    }
    return { kind: 'object', entries, offset: node.offset };
  }
  if (node.type === 'array') {
    return {
      kind: 'array',
      items: (node.children ?? []).map((child) => valueOfNode(child, text, file)),
      offset: node.offset,
    };
  }
  return {
    kind: 'scalar',
    raw: text.slice(node.offset, node.offset + node.length),
    value: node.value as string | number | boolean | null,
    offset: node.offset,
  };
}

export function load(bytes: Buffer, path: string, report?: Catalog['report']): Catalog {
  let text = decodeUtf8(bytes, path, 'save it as UTF-8');
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(BOM.length);
  checkJsonDepth(text, path, DEFAULT_SOURCE_LIMITS.maxDepth);
  const file: Reading = { text, path, report };
  const { tree, errors } = jsonTree(text, STRICT_JSON);
  if (errors.length > 0) {
    const [first] = errors;
    fail(file, `is not JSON (${printParseErrorCode(first!.error)})`, first!.offset);
  }
  if (!tree || tree.type !== 'object') fail(file, 'is not a String Catalog: its JSON is not an object', 0);
  const root = valueOfNode(tree, text, file, 'root') as JsonObject;
  const version = field(root, 'version');
  const supported = KNOWN_VERSIONS.join(', ');
  if (version?.kind !== 'scalar' || typeof version.value !== 'string') {
    fail(file, `is not a String Catalog Tolk knows: it has no "version" (supported: ${supported})`, 0);
  }
  if (!(KNOWN_VERSIONS as readonly string[]).includes(version.value)) {
    fail(
      file,
      `is a String Catalog of version ${JSON.stringify(version.value)}, which Tolk does not know (supported: ${supported}); ` +
        'nothing was read from it',
      version.offset,
    );
  }
  const sourceLanguage = field(root, 'sourceLanguage');
  if (sourceLanguage?.kind !== 'scalar' || typeof sourceLanguage.value !== 'string') {
    fail(file, 'is not a String Catalog: "sourceLanguage" (a string such as "en") is missing', 0);
  }
  const strings = field(root, 'strings');
  if (strings?.kind !== 'object') fail(file, 'is not a String Catalog: "strings" (an object) is missing', 0);
  for (const entry of strings.entries) {
    if (entry.value.kind !== 'object') {
      finding(
        file,
        null,
        'format',
        `the string ${JSON.stringify(entry.key)} is not an object; left out`,
        entry.offset,
      );
    }
  }
  const end = tree.offset + tree.length;
  return {
    text,
    path,
    bom,
    trailing: text.slice(end),
    root,
    sourceLanguage: sourceLanguage.value,
    strings,
    report,
  };
}

export function field(object: JsonValue | undefined, key: string): JsonValue | undefined {
  if (object?.kind !== 'object') return undefined;
  return object.entries.find((entry) => entry.key === key)?.value;
}

export function objectField(object: JsonValue | undefined, key: string): JsonObject | undefined {
  const value = field(object, key);
  return value?.kind === 'object' ? value : undefined;
}

export function stringField(object: JsonValue | undefined, key: string): string | undefined {
  const value = field(object, key);
  return value?.kind === 'scalar' && typeof value.value === 'string' ? value.value : undefined;
}

const scalar = (value: string): JsonValue => ({
  kind: 'scalar',
  raw: JSON.stringify(value),
  value,
  offset: -1,
});
export const object = (entries: [string, JsonValue][]): JsonObject => ({
  kind: 'object',
  entries: entries.map(([key, value]) => ({ key, rawKey: JSON.stringify(key), value, offset: -1 })),
  offset: -1,
});

export const unit = (value: string) =>
  object([
    ['state', scalar('translated')],
    ['value', scalar(value)],
  ]);
