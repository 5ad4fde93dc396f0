/**
 * A target resource file: the source's layout with the target's values, or the target on disk
 * edited where its translations change (DESIGN §16).
 */
import { pluralCategories, type PluralCategory } from '@tolk/locale-file';
import { keepsUnwritten, type WriteInput } from '../format.js';
import { keyOfName } from '../key-names.js';
import { pluralBranches } from '../plural-message.js';
import { openTagEnd } from '../xml-dom.js';
import { nearest } from '../nearest.js';
import {
  ANDROID_INTERPOLATION,
  ELEMENT,
  type Entry,
  type Loaded,
  type Span,
  TEXT,
  commentsAbove,
  keysOf,
  load,
} from './load.js';
import { escapeValue } from './text.js';

export function writeResources(input: WriteInput): string {
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
