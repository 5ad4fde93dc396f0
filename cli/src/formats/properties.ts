/**
 * `properties`: a Java resource bundle (`messages_pt_BR.properties`), DESIGN §12.
 *
 * Read with `properties-file`, whose parser is lossless (every comment, blank line, separator,
 * continuation line and escape of the file, with line numbers) and as strict as Java's own
 * `Properties.load` (a malformed `\uXXXX` is an error, not a silent `u`). `dot-properties`, the
 * other maintained one, keeps no line structure of a pair and reads a malformed escape as text.
 *
 * - Keys are flat: `checkout.title` is one name, and the document stays flat (the server keeps
 *   its dotted names as they are).
 * - The comment lines right above a key (no blank line between) are its context.
 * - UTF-8 by default (Java 9+ reads resource bundles as UTF-8); ISO-8859-1 when the file set says
 *   `"encoding": "iso-8859-1"`, and then a character beyond Latin-1 is written `\uXXXX`.
 * - A target keeps the source's lines: comments, blank lines, separators, order, and the lines of
 *   every value that did not change. A changed value is written on its key's line; a key with no
 *   value is left out with its comment lines.
 * - A target already on disk is edited in place instead (DESIGN §16): a changed value replaces
 *   its property's lines in the property's layout and the file's escaping (`\uXXXX` or the
 *   characters themselves), new keys are placed by their neighbours in the source and in their
 *   layout, keys gone (synced by Tolk, WriteInput.synced) or with no value are removed with
 *   their comment lines; every other line
 *   keeps its bytes and line break. A target on disk that does not read is written anew. A
 *   property new to it from another version of the same file (a merge, `WriteInput.sameFile`)
 *   comes as it stands there, with the comments and blank lines before it.
 * - A key given twice is a finding, and its last value is kept, as Java's `Properties.load` keeps
 *   it; a key the locale document cannot hold (empty, starting with `@`, or with an empty segment)
 *   is a finding and left out.
 * - Refused (the file does not parse): bytes that are not the file's encoding (UTF-16, binary),
 *   a malformed `\u` escape.
 */
import { parseTargetLocale } from '@tolk/contracts';
import { parseSourceDocument, type PluralGroup } from '@tolk/locale-file';
import { Properties, type PropertiesNode, type PropertyNode } from 'properties-file/parser';
import {
  addFinding,
  FormatError,
  keepsUnwritten,
  type FormatOptions,
  type LocaleFormat,
  type ReadInput,
  type WriteInput,
} from './format.js';
import { checkNoNul, checkNotUtf16, decodeUtf8 } from './utf8.js';
import { nearest } from './nearest.js';

export const propertiesFormat: LocaleFormat = {
  name: 'properties',
  extensions: ['.properties'],
  /**
   * Java's bundle names (`ResourceBundle.Control.toBundleName`): language, script, country and
   * variant joined by `_`, in BCP 47's order: `pt_BR`, `zh_Hant`, `zh_Hant_TW`, `es_419`.
   * (`Locale.toString`'s `zh_TW_#Hant` names no file.)
   */
  spellLocale: (locale) => locale.replaceAll('-', '_'),
  readLocale(spelled) {
    if (spelled.includes('-')) return undefined;
    const parsed = parseTargetLocale(spelled.replaceAll('_', '-'));
    return parsed.ok ? parsed.locale : undefined;
  },
  read(input: ReadInput) {
    return documentOf(load(input.bytes, input.path, input.options, input));
  },
  write: writeProperties,
};

type Loaded = {
  path: string;
  latin1: boolean;
  /** The file's text, byte order mark included. */
  text: string;
  /** How a value is escaped where the file has a say (`unicodeStyle`). */
  style: EscapeStyle;
  properties: Properties;
  /** The properties that are no key of the document, by their node. */
  unread: Set<PropertyNode>;
};

const ENCODING_HINT = 'if it is ISO-8859-1 (Java before 9), set "encoding": "iso-8859-1" for it in tolk.json';

function load(bytes: Buffer, path: string, options: FormatOptions, report?: ReadInput): Loaded {
  const latin1 = options.encoding === 'iso-8859-1';
  let text: string;
  if (latin1) {
    checkNotUtf16(bytes, path, 'save it as ISO-8859-1, as tolk.json says it is');
    text = bytes.toString('latin1');
    checkNoNul(text, path);
  } else text = decodeUtf8(bytes, path, ENCODING_HINT);
  let properties: Properties;
  try {
    properties = new Properties(text);
  } catch (error) {
    throw new FormatError(
      path,
      (error as Error).message,
      malformedEscapeAt(text, (error as Error).message) ?? { line: 1, column: 1 },
    );
  }
  const loaded: Loaded = { path, latin1, text, style: PLAIN, properties, unread: new Set() };
  const finding = (node: PropertyNode, kind: 'duplicate' | 'format', message: string) => {
    if (report) {
      addFinding(report, {
        key: node.key,
        kind,
        severity: 'warning',
        message,
        line: node.startingLineNumber,
        column: node.leadingWhitespace.length + 1,
      });
    }
  };
  for (const collision of properties.getKeyCollisions()) {
    const lines = collision.nodes.map((node) => node.startingLineNumber);
    for (const node of collision.nodes.slice(1)) {
      finding(
        node,
        'duplicate',
        `the key ${JSON.stringify(collision.key)} is given twice (lines ${lines.join(', ')}); the last value is kept, as Java keeps it`,
      );
    }
  }
  for (const node of properties.getProperties()) {
    const key = node.key;
    if (key === '' || key.startsWith('@') || key.startsWith('.') || key.endsWith('.') || key.includes('..')) {
      loaded.unread.add(node);
      finding(
        node,
        'format',
        `the key ${JSON.stringify(key)} cannot be a key of a locale document (empty, starting with @, which marks annotations, or with an empty segment between dots); left out`,
      );
    }
  }
  return loaded;
}

/**
 * Where the parser's "malformed escaped unicode characters" is: the parser names no line, so the
 * first prefix of whole lines that fails to parse is found (by halving) and the escape in its
 * last line.
 */
function malformedEscapeAt(text: string, message: string): { line: number; column: number } | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  const fails = (count: number) => {
    try {
      new Properties(lines.slice(0, count).join('\n'));
      return false;
    } catch {
      return true;
    }
  };
  let low = 1;
  let high = lines.length;
  if (!fails(high)) return undefined;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (fails(middle)) high = middle;
    else low = middle + 1;
  }
  const escape = /'(.*)'/.exec(message)?.[1];
  const column = escape ? lines[low - 1]!.indexOf(escape) : -1;
  return { line: low, column: column + 1 || 1 };
}

/** The comment lines right above the property at `index` (no blank line between), top first. */
function commentsAbove(nodes: readonly PropertiesNode[], index: number): number[] {
  const above: number[] = [];
  for (let at = index - 1; at >= 0 && nodes[at]!.type === 'comment'; at--) above.unshift(at);
  return above;
}

function documentOf(loaded: Loaded): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  const nodes = loaded.properties.nodes;
  nodes.forEach((node, index) => {
    if (node.type !== 'property' || loaded.unread.has(node)) return;
    define(document, node.key, node.value);
    const description = commentsAbove(nodes, index)
      .map((at) => (nodes[at] as Extract<PropertiesNode, { type: 'comment' }>).body.trim())
      .filter((line) => line !== '')
      .join('\n');
    if (description) define(document, `@${node.key}`, { description });
  });
  return document;
}

/** A property of a plain object, `__proto__` included. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function writeProperties(input: WriteInput): Buffer {
  const loaded = load(input.source, '(source)', input.options);
  if (input.existing !== undefined) {
    let onDisk: Loaded | undefined;
    try {
      onDisk = load(input.existing, '(target)', input.options);
    } catch (error) {
      // A target that does not read is written anew in the source's layout.
      if (!(error instanceof FormatError)) throw error;
    }
    if (onDisk) return editInPlace(loaded, onDisk, input);
  }
  const { properties } = loaded;
  const { target, valueOf } = input;
  const nodes = properties.nodes;
  const sourceKeys = parseSourceDocument(documentOf(loaded)).keys;
  const indexOf = new Map(sourceKeys.map((key, index) => [key, index]));
  const drop = new Set<number>();
  const replaced = new Map<number, PropertiesNode[]>();
  const formsOf = new Map<PluralGroup, PropertyNode[]>();
  nodes.forEach((node, index) => {
    if (node.type !== 'property') return;
    const group = target.groups.length > 0 ? target.groupOfSource.get(indexOf.get(node.key)!) : undefined;
    if (group) {
      // An i18next plural group: the target's forms at the place of the first source form, or
      // each at its place when the target has only forms the source has.
      let forms = formsOf.get(group);
      const first = !forms;
      if (!forms) formsOf.set(group, (forms = groupForms(loaded, nodes, group, input)));
      const sourceForms = new Set(group.forms.map((form) => sourceKeys[form.index]));
      if (forms.every((form) => sourceForms.has(form.key))) {
        const form = forms.find((candidate) => candidate.key === node.key);
        if (form) replaced.set(index, [form]);
        else drop.add(index);
      } else if (first) replaced.set(index, forms);
      else drop.add(index);
      return;
    }
    const value = valueOf(node.key);
    if (value === undefined) {
      drop.add(index);
      for (const at of commentsAbove(nodes, index)) drop.add(at);
    } else if (value !== node.value) {
      replaced.set(index, [withValue(loaded, node, value)]);
    }
  });
  const out: PropertiesNode[] = [];
  nodes.forEach((node, index) => {
    const replacement = replaced.get(index);
    if (replacement) out.push(...replacement);
    else if (!drop.has(index)) out.push(node);
  });
  nodes.splice(0, nodes.length, ...out);
  const text = properties.format();
  return Buffer.from(text, loaded.latin1 ? 'latin1' : 'utf8');
}

/** The target's forms of an i18next group; a form the source lacks is written as `_other` is. */
function groupForms(loaded: Loaded, nodes: readonly PropertiesNode[], group: PluralGroup, input: WriteInput) {
  const byKey = new Map<string, PropertyNode>();
  for (const node of nodes) if (node.type === 'property') byKey.set(node.key, node);
  const other = byKey.get(`${group.base}${group.type === 'ordinal' ? '_ordinal' : ''}_other`)!;
  const forms: PropertyNode[] = [];
  for (const entry of input.target.formsOf.get(group)!) {
    const value = input.valueOf(entry.key);
    if (value === undefined) continue;
    const node = byKey.get(entry.key);
    if (node) forms.push(value === node.value ? node : withValue(loaded, node, value));
    else
      forms.push(
        withValue(loaded, { ...other, key: entry.key, escapedKey: escape(entry.key, loaded, true) }, value),
      );
  }
  return forms;
}

/** `node` with another value, on one line, in the node's layout (indentation and separator). */
function withValue(loaded: Loaded, node: PropertyNode, value: string): PropertyNode {
  const noSeparator =
    node.separatorChar === undefined && node.separatorLeading === '' && node.separatorTrailing === '';
  const separator = noSeparator
    ? '='
    : `${node.separatorLeading}${node.separatorChar ?? ''}${node.separatorTrailing}`;
  let escapedValue = escape(value, loaded, false);
  // After a separator of whitespace only, Java would take a leading `=` or `:` as the separator.
  if (!noSeparator && node.separatorChar === undefined && /^[=:]/.test(escapedValue)) {
    escapedValue = `\\${escapedValue}`;
  }
  return {
    ...node,
    value,
    escapedValue,
    rawLines: [`${node.leadingWhitespace}${node.escapedKey}${separator}${escapedValue}`],
  };
}

/**
 * Java's escapes of a key or value, written by hand rather than by properties-file's
 * `escapeValue`, which also escapes `=`, `:`, `#` and `!` inside values (legal, but it would
 * turn every `Error: {0}` into `Error\: {0}` where Java needs nothing): the backslash, line
 * breaks, tab and form feed, a leading space (which Java would skip), in keys the separators
 * and a leading `#`/`!`, and control characters and (in ISO-8859-1) characters beyond Latin-1
 * as `\uXXXX`, one per UTF-16 unit as Java reads them.
 */
function escape(text: string, loaded: Loaded, key: boolean): string {
  const { ascii, upperHex } = loaded.style;
  let out = '';
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    const code = char.charCodeAt(0);
    if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char === '\f') out += '\\f';
    else if (char === ' ' && (at === 0 || key)) out += '\\ ';
    else if (key && (char === '=' || char === ':' || ((char === '#' || char === '!') && at === 0)))
      out += `\\${char}`;
    else if (
      code < 0x20 ||
      (code >= 0x7f && code < 0xa0) ||
      (loaded.latin1 && code > 0xff) ||
      (ascii && code > 0x7f)
    ) {
      const hex = code.toString(16).padStart(4, '0');
      out += `\\u${upperHex ? hex.toUpperCase() : hex}`;
    } else out += char;
  }
  return out;
}

/**
 * How a file writes what it escapes by choice: `ascii` when it spells every character beyond
 * ASCII as `\uXXXX` (the habit of Java before 9 and of `native2ascii`), `upperHex` when its
 * escapes' hex digits are capitals.
 */
type EscapeStyle = { ascii: boolean; upperHex: boolean };

const PLAIN: EscapeStyle = { ascii: false, upperHex: false };

/** The escape style of a file's keys and values (comments are no part of it). */
function styleOf(properties: Properties): EscapeStyle {
  let raw = false;
  let escaped = false;
  let upper = false;
  let lower = false;
  for (const node of properties.getProperties()) {
    for (const line of node.rawLines) {
      if (/[^\p{ASCII}]/u.test(line)) raw = true;
      for (const match of line.matchAll(/\\u([0-9a-fA-F]{4})/g)) {
        const hex = match[1]!;
        if (parseInt(hex, 16) > 0x7f) escaped = true;
        if (/[A-F]/.test(hex)) upper = true;
        if (/[a-f]/.test(hex)) lower = true;
      }
    }
  }
  return { ascii: escaped && !raw, upperHex: upper && !lower };
}

/** A line of a file and the line break that ends it (none for the last). */
type Line = { text: string; end: string };

/**
 * The target on disk (`onDisk`) with only its changed entries edited (DESIGN §16): a changed
 * value replaces its property's lines (continuation lines included) in the property's layout and
 * the file's escaping; a new key goes after the nearest key before it in the source that the
 * target has (else before the nearest one after it, else at the end) in that neighbour's layout;
 * a key with no value, or that the source no longer has and Tolk synced, goes with the comment
 * lines right above it (one Tolk never synced stays).
 * Every other line keeps its bytes and its line break; nothing to change gives `existing` back.
 */
function editInPlace(source: Loaded, onDisk: Loaded, input: WriteInput): Buffer {
  onDisk.style = styleOf(onDisk.properties);
  const wanted = wantedEntries(source, input);
  const nodes = onDisk.properties.nodes;
  /** The target's properties of each key, in the file's order. */
  const onDiskOf = new Map<string, number[]>();
  nodes.forEach((node, index) => {
    if (node.type !== 'property' || onDisk.unread.has(node)) return;
    const list = onDiskOf.get(node.key);
    if (list) list.push(index);
    else onDiskOf.set(node.key, [index]);
  });
  const valueOf = new Map<string, string>();
  for (const entry of wanted) if (entry.value !== undefined) valueOf.set(entry.key, entry.value);

  const bom = onDisk.text.startsWith('\ufeff');
  const parts = (bom ? onDisk.text.slice(1) : onDisk.text).split(/(\r\n|\r|\n)/);
  const lines: Line[] = [];
  for (let at = 0; at < parts.length; at += 2) lines.push({ text: parts[at]!, end: parts[at + 1] ?? '' });
  const eol = onDisk.properties.eolCharacter;
  const firstLine = (node: PropertiesNode) =>
    (node.type === 'property' ? node.startingLineNumber : node.lineNumber) - 1;
  const lastLine = (node: PropertiesNode) =>
    (node.type === 'property' ? node.endingLineNumber : node.lineNumber) - 1;

  let changed = false;
  const removed = new Set<number>();
  const replaced = new Map<number, string>();
  for (const [key, indexes] of onDiskOf) {
    const value = valueOf.get(key);
    // A key the source lacks stays as it is unless Tolk synced it (keepsUnwritten).
    if (value === undefined && keepsUnwritten(input, key)) continue;
    if (value === undefined) {
      for (const index of indexes) {
        for (const at of [...commentsAbove(nodes, index), index]) {
          for (let line = firstLine(nodes[at]!); line <= lastLine(nodes[at]!); line++) removed.add(line);
        }
      }
      changed = true;
      continue;
    }
    // The last of a key given twice is the one Java keeps: the one that changes.
    const node = nodes[indexes.at(-1)!] as PropertyNode;
    if (value === node.value) continue;
    replaced.set(firstLine(node), withValue(onDisk, node, value).rawLines[0]!);
    for (let line = firstLine(node) + 1; line <= lastLine(node); line++) removed.add(line);
    changed = true;
  }

  // New keys: placed by their neighbours in the source, in their layout.
  const before = new Map<number, string[]>();
  const after = new Map<number, string[]>();
  const atEnd: string[] = [];
  const present = (key: string | undefined) =>
    key !== undefined && valueOf.has(key) && onDiskOf.has(key) ? onDiskOf.get(key)!.at(-1)! : undefined;
  const lastProperty = [...onDiskOf.values()].map((indexes) => indexes.at(-1)!).sort((a, b) => b - a)[0];
  const neighbours = nearest(wanted, (entry) => present(entry.key));
  const insert = (into: Map<number, string[]>, line: number, text: string) => {
    const list = into.get(line);
    if (list) list.push(text);
    else into.set(line, [text]);
  };
  // Another version of the file (a merge): its lines, for the properties it adds.
  let sourceLines: ReturnType<typeof linesBefore> | undefined;
  let sourceIndex: Map<PropertiesNode, number> | undefined;
  wanted.forEach((entry, position) => {
    if (entry.value === undefined || onDiskOf.has(entry.key)) return;
    changed = true;
    const { before: previous, after: next } = neighbours[position]!;
    if (previous !== undefined) {
      const line = lastLine(nodes[previous]!);
      // From another version of this file (a merge), the property comes as it stands there, with
      // the comments and blank lines between it and the property before it.
      if (input.sameFile && entry.value === entry.node.value) {
        sourceLines ??= linesBefore(source);
        sourceIndex ??= new Map(source.properties.nodes.map((node, index) => [node, index]));
        const lines = sourceLines(sourceIndex.get(entry.node)!, wanted[position - 1]?.node);
        for (const text of lines) insert(after, line, text);
        return;
      }
      insert(after, line, lineOf(onDisk, nodes[previous] as PropertyNode, entry.key, entry.value));
      return;
    }
    if (next !== undefined) {
      const line = firstLine(nodes[commentsAbove(nodes, next)[0] ?? next]!);
      insert(before, line, lineOf(onDisk, nodes[next] as PropertyNode, entry.key, entry.value));
      return;
    }
    const like = lastProperty !== undefined ? (nodes[lastProperty] as PropertyNode) : entry.node;
    atEnd.push(lineOf(lastProperty !== undefined ? onDisk : source, like, entry.key, entry.value));
  });
  if (!changed) return input.existing!;

  const out: (Line & { added?: true })[] = [];
  const last = lines.length - 1;
  const add = (texts: string[] | undefined) => {
    for (const text of texts ?? []) out.push({ text, end: eol, added: true });
  };
  lines.forEach((line, index) => {
    // At the end: before the empty line after a final line break, so that the break stays last.
    if (index === last && line.text === '') add(atEnd);
    add(before.get(index));
    if (!removed.has(index)) out.push({ text: replaced.get(index) ?? line.text, end: line.end });
    add(after.get(index));
    if (index === last && line.text !== '') add(atEnd);
  });
  // Each line keeps its line break (a new one has the file's first kind); the file's last line,
  // which has none, gets one when new lines follow it, and the last of them then has none.
  const final = out.at(-1);
  if (final?.added && lines[last]!.text !== '') final.end = '';
  const text = out
    .map((line, index) => line.text + (index === out.length - 1 ? line.end : line.end || eol))
    .join('');
  return Buffer.from(`${bom ? '\ufeff' : ''}${text}`, onDisk.latin1 ? 'latin1' : 'utf8');
}

/**
 * The lines of a property of `loaded` and of what stands between it and the property before it
 * (without one, the comments right above it), by its index among the file's nodes.
 */
function linesBefore(loaded: Loaded): (index: number, previous: PropertyNode | undefined) => string[] {
  const lines = loaded.text.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);
  const nodes = loaded.properties.nodes;
  return (index, previous) => {
    const node = nodes[index] as PropertyNode;
    const first = nodes[commentsAbove(nodes, index)[0] ?? index]!;
    // Line numbers count from 1: the line after `previous`'s, else the first comment's.
    const start = previous
      ? previous.endingLineNumber
      : (first.type === 'property' ? first.startingLineNumber : first.lineNumber) - 1;
    return lines.slice(start, node.endingLineNumber);
  };
}

/** A new property line for `key`, in the layout of `like` (a property of the same file). */
function lineOf(loaded: Loaded, like: PropertyNode, key: string, value: string): string {
  return withValue(loaded, { ...like, key, escapedKey: escape(key, loaded, true) }, value).rawLines[0]!;
}

/**
 * The target's keys in the source's order, each with its value (undefined: left out) and the
 * source property it stands for. An i18next plural group's target forms stand where its first
 * source form stands.
 */
function wantedEntries(
  source: Loaded,
  input: WriteInput,
): { key: string; value: string | undefined; node: PropertyNode }[] {
  const { target, valueOf } = input;
  const sourceKeys = parseSourceDocument(documentOf(source)).keys;
  const indexOf = new Map(sourceKeys.map((key, index) => [key, index]));
  const wanted: { key: string; value: string | undefined; node: PropertyNode }[] = [];
  const seen = new Set<string>();
  const add = (key: string, value: string | undefined, node: PropertyNode) => {
    if (seen.has(key)) return;
    seen.add(key);
    wanted.push({ key, value, node });
  };
  for (const node of source.properties.getProperties()) {
    if (source.unread.has(node)) continue;
    const group = target.groups.length > 0 ? target.groupOfSource.get(indexOf.get(node.key)!) : undefined;
    if (!group) {
      add(node.key, valueOf(node.key), node);
      continue;
    }
    for (const form of target.formsOf.get(group)!) add(form.key, valueOf(form.key), node);
    // A source form the target locale does not have is no key of the target.
    add(node.key, undefined, node);
  }
  return wanted;
}
