/** A PO target on disk edited in place to hold the target's translations (DESIGN §16): `editInPlace`. */
import { nearest } from '../nearest.js';
import { type Parsed, type Part, isFuzzy, isTranslated } from './parse.js';
import { type RevisionFields, entryLines, withoutSeparatorsOfLeftOut } from './lines.js';

/**
 * The target on disk with the source's translations written where they change (DESIGN §16): an
 * entry whose value changed gets its msgstr (its `fuzzy` flag taken off), an entry the source no
 * longer has and Tolk synced (`keeps` says no) or whose translation is left out goes with its
 * comments and the blank line after it (an untranslated or fuzzy one with no value stays as it
 * is, and so does one the source lacks that Tolk never synced), an
 * entry new in the source goes after the nearest entry before it in the source that the target
 * has (else before the nearest one after it, else at the end) with the template's comments;
 * every other line — the header with its credits and dates, obsolete `#~` entries, entries Tolk
 * does not read — stays as it is. Only a header without the locale's Language or Plural-Forms
 * gets them (`header`: the locale's; undefined keeps the header as it is).
 */
export function editInPlace(
  source: Parsed,
  onDisk: Parsed,
  valueOf: (key: string) => string | undefined,
  written: (part: Extract<Part, { kind: 'entry' }>, value: string) => string[],
  header: { spelled: string; pluralText: string | undefined } | undefined,
  revision: RevisionFields | undefined,
  keeps: (key: string) => boolean,
): string[] {
  type Entry = Extract<Part, { kind: 'entry' }>;
  const readable = (part: Part): part is Entry => part.kind === 'entry' && !part.unread && part.key !== '';
  const sourceEntries = source.parts.filter(readable).filter((part) => part !== source.header);
  const inSource = new Set(sourceEntries.map((part) => part.key));
  const atOnDisk = new Map<string, number>();
  onDisk.parts.forEach((part, index) => {
    if (readable(part) && part !== onDisk.header) atOnDisk.set(part.key, index);
  });
  const out: string[][] = onDisk.parts.map((part) => {
    if (part.kind === 'text') return part.lines;
    if (part === onDisk.header)
      return header ? headerInPlace(part, onDisk, header.spelled, header.pluralText) : part.lines;
    if (part.unread || part.key === '') return part.lines;
    if (!inSource.has(part.key)) return keeps(part.key) ? part.lines : [];
    const value = valueOf(part.key);
    if (value !== undefined) return written(part, value);
    // No value: a translation goes (a key left out), an entry that is none (empty, fuzzy) stays.
    return isTranslated(part.entry) ? [] : part.lines;
  });
  const headerAt = onDisk.header ? onDisk.parts.indexOf(onDisk.header) : -1;
  const entriesChanged = () =>
    out.some(
      (block, index) => index !== headerAt && block !== (onDisk.parts[index] as { lines: string[] }).lines,
    ) || sourceEntries.some((part) => !atOnDisk.has(part.key) && valueOf(part.key) !== undefined);
  if (revision && headerAt !== -1 && entriesChanged())
    out[headerAt] = headerInPlace(onDisk.header!, onDisk, header!.spelled, header!.pluralText, revision);
  const lines = withoutSeparatorsOfLeftOut(onDisk.parts, out);
  // New entries, placed by the lines of their neighbours in the output.
  const after = new Map<number, string[][]>();
  const before = new Map<number, string[][]>();
  const atEnd: string[][] = [];
  const lineOf = new Map<number, { start: number; end: number }>();
  let cursor = 0;
  out.forEach((block, index) => {
    const part = onDisk.parts[index]!;
    const skipped =
      part.kind === 'text' &&
      index > 0 &&
      out[index - 1]!.length === 0 &&
      onDisk.parts[index - 1]!.kind === 'entry'
        ? 1
        : 0;
    const length = block.length - skipped;
    lineOf.set(index, { start: cursor, end: cursor + length });
    cursor += length;
  });
  const kept = (key: string) => {
    const index = atOnDisk.get(key);
    return index !== undefined && out[index]!.length > 0 ? index : undefined;
  };
  const neighbours = nearest(sourceEntries, (other) => kept(other.key));
  sourceEntries.forEach((part, at) => {
    if (atOnDisk.has(part.key)) return;
    const value = valueOf(part.key);
    if (value === undefined) return;
    const block = written(part, value);
    const { before: previous, after: next } = neighbours[at]!;
    if (previous !== undefined)
      return void (after.get(previous) ?? after.set(previous, []).get(previous)!).push(block);
    if (next !== undefined) return void (before.get(next) ?? before.set(next, []).get(next)!).push(block);
    atEnd.push(block);
  });
  if (after.size === 0 && before.size === 0 && atEnd.length === 0) return lines;
  const inserts: { line: number; lines: string[] }[] = [];
  for (const [index, blocks] of after) {
    // After the entry, each new one after a blank line of its own.
    inserts.push({ line: lineOf.get(index)!.end, lines: blocks.flatMap((block) => ['', ...block]) });
  }
  for (const [index, blocks] of before) {
    inserts.push({ line: lineOf.get(index)!.start, lines: blocks.flatMap((block) => [...block, '']) });
  }
  if (atEnd.length > 0) {
    // Before the final newline's empty last line, when the file has one.
    const end = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
    const trailingBlank = end > 0 && lines[end - 1]!.trim() === '';
    inserts.push({
      line: end,
      lines: atEnd.flatMap((block, i) => (i === 0 && trailingBlank ? block : ['', ...block])),
    });
  }
  inserts.sort((a, b) => b.line - a.line);
  for (const insert of inserts) lines.splice(insert.line, 0, ...insert.lines);
  return lines;
}

/** The target's header as it is, with the locale's Language and Plural-Forms where it lacks them. */
function headerInPlace(
  part: Extract<Part, { kind: 'entry' }>,
  onDisk: Parsed,
  spelled: string,
  pluralText: string | undefined,
  revision?: RevisionFields,
): string[] {
  const fields = [...onDisk.headers.entries()];
  const set = (name: string, value: string) => {
    const at = fields.findIndex(([field]) => field === name);
    if (at === -1) fields.push([name, value]);
    else fields[at] = [name, value];
  };
  const language = onDisk.headers.get('Language');
  const plural = onDisk.headers.get('Plural-Forms');
  const contentType = onDisk.headers.get('Content-Type');
  const needsCharset = !contentType || /charset=CHARSET/.test(contentType);
  if (
    language &&
    (!pluralText || plural === pluralText) &&
    !needsCharset &&
    !isFuzzy(part.entry) &&
    !revision
  )
    return part.lines;
  for (const [name, value] of Object.entries(revision ?? {})) set(name, value);
  if (!language) set('Language', spelled);
  if (pluralText && plural !== pluralText) set('Plural-Forms', pluralText);
  if (needsCharset) set('Content-Type', 'text/plain; charset=UTF-8');
  return entryLines(part, [fields.map(([name, value]) => `${name}: ${value}\n`).join('')], true);
}
