/**
 * `android`: an Android string resource file (`res/values/strings.xml`, `res/values-pt-rBR/…`),
 * DESIGN §12.
 *
 * Parsed with `@xmldom/xmldom` for what the file means (its elements, text, CDATA, entities and
 * well-formedness, with the line and column of an error) and its node positions; a target is
 * written by editing the source's text at those positions, so everything Tolk does not change
 * keeps its bytes (entities, attribute quoting, comments, blank lines, the text after the root),
 * which a DOM serializer would not. A file with a DOCTYPE is refused: no DTD, no entity of one
 * (no XXE); xmldom resolves no external entity in any case.
 *
 * - `<string name="k">` is the key `k`; `<string-array name="k">`'s items are `k.0`, `k.1`, …;
 *   `<plurals name="k">` is one key whose value is an ICU plural message of its quantities,
 *   written back with the target's CLDR categories. A name ending in an i18next plural suffix
 *   (`items_one`) is an ordinary string in Android: its key is escaped (`key-names.ts`) so that
 *   the server never takes it for a plural form.
 * - Values are what the app shows: Android's escapes (`\'`, `\"`, `\\`, `\n`, `\t`, `\uXXXX`,
 *   `\@`, `\?`) and quoting (`"…"` keeps whitespace) read, unquoted whitespace collapsed as
 *   aapt2 does; written back escaped. Inline markup (`<b>`, `<xliff:g id="x">%1$s</xliff:g>`)
 *   stays in the value as it is written, so the placeholder checks see it. A value that is one
 *   CDATA section is its text, and the target's is written in one again.
 * - `translatable="false"` entries, references (`@string/other`, `?attr/x`) and other resource
 *   types (`color`, `dimen`, …) are no text to translate: out of the document and the targets
 *   (the app takes them from the default resources).
 * - The comments right above an element (no blank line between) are its context.
 * - A target keeps the source's layout; an element whose key has no value is left out with its
 *   comments, and so is a string array one of whose items has none (Android takes an array whole
 *   from one directory).
 * - Locales as Android's resource directories spell them: `pl`, `pt-rBR`, `b+zh+Hant`.
 * - What aapt2 or Android allow and Tolk does not expect is a finding on its key at its line, and
 *   the rest of the file is read (DESIGN §15): a `<plurals>` without `other` (its quantities are
 *   kept: an error, the app has no text for the counts `other` covers), a name given twice or a
 *   quantity given twice (the first is kept; aapt2 refuses the file: an error), an element or
 *   quantity Tolk does not read, a resource that may hold text Tolk does not read (`<item
 *   type="string">`, `<array>`), an element without a name. Only a file that is not well-formed
 *   XML (or has a DOCTYPE, or no `<resources>` root) is refused.
 */
import { parseTargetLocale } from '@tolk/contracts';
import { pluralCategories, PLURAL_CATEGORIES, type PluralCategory } from '@tolk/locale-file';
import {
  addFinding,
  FormatError,
  keepsUnwritten,
  type FileFinding,
  type LocaleFormat,
  type ReadInput,
  type WriteInput,
} from './format.js';
import { keyOfName } from './key-names.js';
import { icuPluralMessage, pluralBranches, type Interpolation } from './plural-message.js';
import { decodeUtf8 } from './utf8.js';
import { openTagEnd, parseXmlStrictly, type XmlNode } from './xml-dom.js';
import { nearest } from './nearest.js';

/** Android text has no named arguments: `{name}` in it reads as an ICU argument and back. */
const ANDROID_INTERPOLATION: Interpolation = { prefix: '' };
const PLURAL_ARGUMENT = 'count';
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

export const androidFormat: LocaleFormat = {
  name: 'android',
  extensions: ['.xml'],
  spellLocale,
  readLocale,
  read(input: ReadInput) {
    return documentOf(load(input.bytes, input.path, input));
  },
  write(input: WriteInput) {
    return Buffer.from(writeResources(input), 'utf8');
  },
};

/** `pt-BR` → `pt-rBR`; a locale with a script or a numeric region in BCP 47 form: `b+zh+Hant`. */
function spellLocale(locale: string): string {
  const parts = locale.split('-');
  if (parts.length === 1) return locale;
  if (parts.length === 2 && /^[A-Z]{2}$/.test(parts[1]!) && /^[a-z]{2,3}$/.test(parts[0]!)) {
    return `${parts[0]}-r${parts[1]}`;
  }
  return `b+${parts.join('+')}`;
}

function readLocale(spelled: string): string | undefined {
  let code: string;
  if (spelled.startsWith('b+')) code = spelled.slice(2).replaceAll('+', '-');
  else {
    const match = /^([a-z]{2,3})(?:-r([A-Z]{2}))?$/.exec(spelled);
    if (!match) return undefined;
    code = match[2] ? `${match[1]}-${match[2]}` : match[1]!;
  }
  const parsed = parseTargetLocale(code);
  return parsed.ok && spellLocale(parsed.locale) === spelled ? parsed.locale : undefined;
}

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;
const COMMENT = 8;

/** A node and where it is in the text: [start, end). */
type Span = { node: XmlNode; start: number; end: number };

type Entry =
  | { kind: 'string'; name: string; span: Span; value: string; cdata: boolean }
  | { kind: 'array'; name: string; span: Span; items: ArrayItem[] }
  | { kind: 'plurals'; name: string; span: Span; items: PluralItem[]; value: string };

type ArrayItem = { span: Span; value: string; cdata: boolean; reference: boolean };
type PluralItem = { span: Span; quantity: PluralCategory; value: string; cdata: boolean };

type Loaded = {
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

function load(bytes: Buffer, path: string, report?: Pick<ReadInput, 'path' | 'findings'>): Loaded {
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
  const names = new Map<string, XmlNode>();

  const finding = (
    node: XmlNode,
    key: string | null,
    kind: FileFinding['kind'],
    message: string,
    severity: FileFinding['severity'] = 'warning',
  ) => {
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

  children.forEach((span, index) => {
    const { node } = span;
    if (node.nodeType === TEXT && (node.data ?? '').trim() !== '') {
      finding(
        node,
        null,
        'format',
        `text outside any element (${JSON.stringify((node.data ?? '').trim().slice(0, 40))}), which aapt2 refuses ("plain text not allowed here"); a target Tolk writes leaves it out`,
        'error',
      );
      return;
    }
    if (node.nodeType !== ELEMENT) return;
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
      return;
    }
    const name = node.getAttribute!('name');
    if (name === null || name === '') {
      finding(node, null, 'format', `a <${node.nodeName}> has no name attribute; left out`, 'error');
      return;
    }
    if (!NAME.test(name)) {
      finding(
        node,
        null,
        'format',
        `the name ${JSON.stringify(name)} is not a resource name (letters, digits, _ and . between them); left out`,
        'error',
      );
      return;
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
      return;
    }
    names.set(name, node);
    if (node.getAttribute!('translatable') === 'false') return;
    if (kind === 'string') {
      const content = contentOf(places, span);
      if (content.reference) return;
      entries.set(index, { kind, name, span: span, value: content.value, cdata: content.cdata });
    } else {
      const items = places.childrenOf(span).filter((child) => child.node.nodeType === ELEMENT);
      const others = items.filter((item) => item.node.nodeName !== 'item');
      if (kind === 'array') {
        if (others.length > 0) {
          // An array's items are keys by their index: one Tolk cannot read leaves the rest unplaced.
          finding(
            others[0]!.node,
            keyOfName(name),
            'format',
            `<string-array name="${name}"> holds a <${others[0]!.node.nodeName}>; only <item> elements go in it, so the array is left out`,
          );
          return;
        }
        const read = items.map((item) => ({ span: item, ...contentOf(places, item) }));
        if (read.every((item) => item.reference)) return;
        entries.set(index, { kind, name, span: span, items: read });
      } else {
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
          return;
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
        entries.set(index, { kind, name, span: span, items: plural, value });
      }
    }
    comments.set(index, commentsAbove(children, index));
  });
  return { path, text, children, entries, comments };
}

/** The comments right above children[index]: only whitespace between, no blank line. */
function commentsAbove(children: readonly Span[], index: number): number[] {
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

const UNQUOTED_RUN = /[^\\"\s]+/y;
const QUOTED_RUN = /[^\\"]+/y;

/** aapt2's reading of a value's text: escapes, quotes, whitespace. */
class AndroidText {
  private out = '';
  private pendingSpace = false;
  private quoted = false;

  text(data: string): void {
    for (let at = 0; at < data.length; at++) {
      // A run of plain characters goes in at once: one by one, a large file's values cost
      // gigabytes of string pieces before they are joined.
      const run = this.quoted ? QUOTED_RUN : UNQUOTED_RUN;
      run.lastIndex = at;
      const plain = run.exec(data);
      if (plain) {
        this.emit(plain[0]);
        at += plain[0].length - 1;
        continue;
      }
      const char = data[at]!;
      if (char === '\\' && at + 1 < data.length) {
        const next = data[++at]!;
        if (next === 'n') this.emit('\n');
        else if (next === 't') this.emit('\t');
        else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(data.slice(at + 1, at + 5))) {
          this.emit(String.fromCharCode(parseInt(data.slice(at + 1, at + 5), 16)));
          at += 4;
        } else this.emit(next);
      } else if (char === '"') this.quoted = !this.quoted;
      else if (!this.quoted && /\s/.test(char)) this.pendingSpace = this.out !== '';
      else this.emit(char);
    }
  }

  markup(source: string): void {
    this.emit(source);
  }

  private emit(chars: string): void {
    if (this.pendingSpace) this.out += ' ';
    this.pendingSpace = false;
    this.out += chars;
  }

  done(): string {
    return this.out;
  }
}

/** Inline markup in a value: kept as it is when written. */
const MARKUP = /<\/?[A-Za-z][\w:.-]*(?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*\/?>/g;

/** A value as the content of an element: Android's escapes, then XML's (or a CDATA section). */
function escapeValue(value: string, cdata: boolean): string {
  // Spaces aapt2 would collapse or trim are kept by quoting the whole value.
  const needsQuotes = /^ | $| {2}/.test(value);
  const android = (part: string, first: boolean) => {
    let out = part
      .replaceAll('\\', '\\\\')
      .replaceAll('"', '\\"')
      .replaceAll("'", "\\'")
      .replaceAll('\n', '\\n')
      .replaceAll('\t', '\\t');
    if (first && (out.startsWith('@') || out.startsWith('?'))) out = `\\${out}`;
    return out;
  };
  if (cdata) {
    const body = android(value, true).replaceAll(']]>', ']]]]><![CDATA[>');
    return `<![CDATA[${needsQuotes ? `"${body}"` : body}]]>`;
  }
  let out = '';
  let at = 0;
  const xml = (part: string) =>
    part.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll(']]>', ']]&gt;');
  for (const match of value.matchAll(MARKUP)) {
    out += xml(android(value.slice(at, match.index), at === 0)) + match[0];
    at = match.index + match[0].length;
  }
  out += xml(android(value.slice(at), at === 0));
  return needsQuotes ? `"${out}"` : out;
}

function documentOf(loaded: Loaded): Record<string, unknown> {
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
function keysOf(entry: Entry): string[] {
  if (entry.kind !== 'array') return [keyOfName(entry.name)];
  return entry.items.flatMap((item, at) => (item.reference ? [] : [`${keyOfName(entry.name)}.${at}`]));
}

/** A property of a plain object, `__proto__` included. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function writeResources(input: WriteInput): string {
  const loaded = load(input.source, '(source)');
  const onDisk = input.existing ? loadedOrUndefined(input.existing) : undefined;
  // DESIGN §16: a target on disk is edited where its translations change, and nowhere else.
  if (onDisk) return editResources(loaded, onDisk, input);
  const { text, children } = loaded;
  const write = entryWriter(text, input.valueOf, pluralCategories(input.locale));
  const drop = new Set<number>();
  const replaced = new Map<number, string>();

  children.forEach((span, index) => {
    if (span.node.nodeType !== ELEMENT) return;
    const entry = loaded.entries.get(index);
    // Not translatable, a reference or no string resource: the app takes it from the source.
    const written = entry ? write(entry) : undefined;
    if (written === undefined) dropWithComments(loaded, index, drop);
    else replaced.set(index, written);
  });
  return joined(loaded, drop, replaced);
}

function loadedOrUndefined(bytes: Buffer): Loaded | undefined {
  try {
    return load(bytes, '(target)');
  } catch {
    return undefined;
  }
}

/** Marks children[index] to go, with the comments right above it and its line's indentation. */
function dropWithComments(loaded: Loaded, index: number, drop: Set<number>): void {
  const { children } = loaded;
  drop.add(index);
  const comments = loaded.comments.get(index) ?? commentsAbove(children, index);
  for (const at of comments) drop.add(at);
  const first = Math.min(index, ...comments);
  // The whitespace between the comments and the element goes too.
  for (let at = first; at < index; at++) drop.add(at);
  // The text right before it (its line break and indentation; any other text there is refused
  // by aapt2 and never written) goes with it.
  if (first > 0 && children[first - 1]!.node.nodeType === TEXT) drop.add(first - 1);
}

/** The file's text with the children in `drop` left out and the entries in `replaced` rewritten. */
function joined(
  loaded: Loaded,
  drop: ReadonlySet<number>,
  replaced: ReadonlyMap<number, string>,
  inserted: ReadonlyMap<number, string> = new Map(),
): string {
  const { text, children } = loaded;
  if (children.length === 0) return text;
  // After child i: inserted.get(i); before the first child: inserted.get(-1).
  let out = text.slice(0, children[0]!.start) + (inserted.get(-1) ?? '');
  children.forEach((span, index) => {
    if (span.node.nodeType === TEXT && !drop.has(index)) {
      // Text outside any element is refused by aapt2: only its line breaks and indentation stay.
      out += text.slice(span.start, span.end).replace(/[^\s]+/g, '');
    } else if (!drop.has(index)) {
      const written = replaced.get(index);
      if (written !== undefined) out += written + text.slice(loaded.entries.get(index)!.span.end, span.end);
      else out += text.slice(span.start, span.end);
    }
    out += inserted.get(index) ?? '';
  });
  return out + text.slice(children[children.length - 1]!.end);
}

/**
 * The target on disk with the source's translations written where they change (DESIGN §16): an
 * entry whose value changed is rewritten where it stands in its own quoting and escapes, an entry
 * whose value is left out, or that the source lacks and Tolk synced, goes with the comments right
 * above it (one Tolk never synced stays as it is), an entry new
 * in the source goes after the nearest entry before it in the source that the target has (else
 * before the nearest one after it, else at the end) in the indentation of its neighbour, with the
 * source's comments; everything else (other resources, comments, blank lines, the XML
 * declaration, attribute order) stays byte for byte.
 */
function editResources(source: Loaded, target: Loaded, input: WriteInput): string {
  const categories = pluralCategories(input.locale);
  const writeTarget = entryWriter(target.text, input.valueOf, categories);
  const writeSource = entryWriter(source.text, input.valueOf, categories);
  const sourceEntries = [...source.entries].sort(([a], [b]) => a - b);
  const inSource = new Set(sourceEntries.map(([, entry]) => entry.name));
  const drop = new Set<number>();
  const replaced = new Map<number, string>();
  const targetIndexOf = new Map<string, number>();
  for (const [index, entry] of target.entries) {
    if (targetIndexOf.has(entry.name)) continue;
    targetIndexOf.set(entry.name, index);
    // An entry the source lacks stays as it is unless Tolk synced it (keepsUnwritten).
    if (!inSource.has(entry.name) && keysOf(entry).every((key) => keepsUnwritten(input, key))) continue;
    const written = inSource.has(entry.name) ? writeTarget(entry) : undefined;
    if (written === undefined) dropWithComments(target, index, drop);
    else replaced.set(index, written);
  }
  const kept = (name: string) => {
    const index = targetIndexOf.get(name);
    return index !== undefined && !drop.has(index) ? index : undefined;
  };
  /** The whitespace before an element's line: the indentation of the target's entries. */
  const indentOf = (index: number) => {
    const before = target.children[index - 1];
    const space = before && before.node.nodeType === TEXT ? (before.node.data ?? '') : '\n    ';
    return space.slice(space.lastIndexOf('\n'));
  };
  // The indentation of the first element (an entry's, else any resource's) or comment.
  const first =
    target.entries.size > 0
      ? Math.min(...target.entries.keys())
      : target.children.findIndex((span) => span.node.nodeType !== TEXT);
  const newline = target.text.includes('\r\n') ? '\r\n' : '\n';
  const indent = (first > 0 ? indentOf(first) : '\n    ').replace(/\r?\n/, newline);
  const inserted = new Map<number, string>();
  const add = (at: number, piece: string) => inserted.set(at, (inserted.get(at) ?? '') + piece);
  const neighbours = nearest(sourceEntries, ([, other]) => kept(other.name));
  sourceEntries.forEach(([sourceIndex, entry], at) => {
    if (targetIndexOf.has(entry.name)) return;
    const written = writeSource(entry);
    if (written === undefined) return;
    const comments = (source.comments.get(sourceIndex) ?? []).map((index) => {
      const span = source.children[index]!;
      return source.text.slice(span.start, span.end).trimEnd();
    });
    const block = [...comments, written].map((line) => indent + line).join('');
    const { before: previous, after: next } = neighbours[at]!;
    if (previous !== undefined) return add(previous, block);
    // Before the next one and the comments above it: after the child before their indentation.
    if (next !== undefined) {
      const first = Math.min(next, ...(target.comments.get(next) ?? []));
      return add(Math.max(first - 2, -1), block);
    }
    // At the end: after the last element or comment, before the line of the closing tag.
    let last = target.children.length - 1;
    while (last >= 0 && target.children[last]!.node.nodeType === TEXT) last--;
    add(last, block);
  });
  return joined(target, drop, replaced, inserted);
}

/** Writes an entry of a file's `text` with its value (undefined: the entry is left out). */
function entryWriter(text: string, valueOf: WriteInput['valueOf'], categories: readonly PluralCategory[]) {
  function element(span: Span, content: string): string {
    const open = text.slice(span.start, openTagEnd(text, span.start));
    const opening = open.endsWith('/>') ? `${open.slice(0, -2).trimEnd()}>` : open;
    return `${opening}${content}</${span.node.nodeName}>`;
  }

  return function writeEntry(entry: Entry): string | undefined {
    const { span } = entry;
    if (entry.kind === 'string') {
      const value = valueOf(keyOfName(entry.name));
      if (value === undefined) return undefined;
      if (value === entry.value) return text.slice(span.start, span.end);
      return element(span, escapeValue(value, entry.cdata));
    }
    if (entry.kind === 'array') {
      const values = entry.items.map((item, at) =>
        item.reference ? null : valueOf(`${keyOfName(entry.name)}.${at}`),
      );
      if (values.some((value) => value === undefined)) return undefined;
      let out = text.slice(span.start, openTagEnd(text, span.start));
      let at = openTagEnd(text, span.start);
      entry.items.forEach((item, index) => {
        const value = values[index];
        out += text.slice(at, item.span.start);
        out +=
          value === null || value === item.value
            ? text.slice(item.span.start, item.span.end)
            : element(item.span, escapeValue(value!, item.cdata));
        at = item.span.end;
      });
      return out + text.slice(at, span.end);
    }
    const message = valueOf(keyOfName(entry.name));
    if (message === undefined) return undefined;
    const quantities = entry.items.map((item) => item.quantity);
    if (message === entry.value && quantities.join() === categories.join())
      return text.slice(span.start, span.end);
    const branches = pluralBranches(message, categories, ANDROID_INTERPOLATION);
    const first = entry.items[0]!;
    const open = openTagEnd(text, span.start);
    const indent = text.slice(open, first.span.start);
    const last = entry.items[entry.items.length - 1]!;
    const closing = text.slice(last.span.end, span.end);
    const itemOpen = text.slice(first.span.start, openTagEnd(text, first.span.start));
    let out = text.slice(span.start, open);
    categories.forEach((category) => {
      const own = entry.items.find((item) => item.quantity === category);
      // A form the message lacks (and no `other` to give it) is left out, as the file had it.
      const branch = branches.get(category);
      if (branch === undefined) return;
      const open = own
        ? text.slice(own.span.start, openTagEnd(text, own.span.start))
        : itemOpen.replace(/quantity\s*=\s*(["'])[^"']*\1/, `quantity="${category}"`);
      out += indent + open + escapeValue(branch, (own ?? first).cdata) + '</item>';
    });
    return out + closing;
  };
}
