/** An XLIFF target on disk edited in place to hold the target's translations (DESIGN §16): `editInPlace`. */
import { keepsUnwritten, type WriteInput } from '../format.js';
import type { Parsed, Range, Unit } from './parse.js';
import { type Edit, applyEdits, encode, withAttribute } from './markup.js';
import { SETTLED, isTargetFile, translationOf } from './targets.js';

/** The whitespace before `offset` on its line, or undefined when text stands there. */
function indentBefore(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/**
 * The edits that give a unit (of `text`) the target `content`: its `<target>` rewritten where it
 * stands with its own attributes (1.2 state `translated`), or one added after its `<source>` in
 * the source's indentation; a 2.0 `<segment>` marked translated.
 */
function targetEdits(text: string, version: Parsed['version'], unit: Unit, content: string): Edit[] {
  const edits: Edit[] = [];
  if (unit.segment)
    edits.push({
      ...unit.segment,
      replacement: withAttribute(text.slice(unit.segment.start, unit.segment.end), 'state', 'translated'),
    });
  if (unit.target) {
    let open = text.slice(unit.target.start, text.indexOf('>', unit.target.start) + 1);
    if (open.endsWith('/>')) open = `${open.slice(0, -2).trimEnd()}>`;
    if (version === '1.2') open = withAttribute(open, 'state', 'translated');
    edits.push({ ...unit.target, replacement: `${open}${content}</target>` });
    return edits;
  }
  const previous = text.lastIndexOf('>', unit.source.start - 1);
  const indent = text.slice(previous + 1, unit.source.start);
  const open = version === '1.2' ? '<target state="translated">' : '<target>';
  edits.push({
    start: unit.source.end,
    end: unit.source.end,
    replacement: (/^\s*$/.test(indent) ? indent : '') + `${open}${content}</target>`,
  });
  return edits;
}

/**
 * The target on disk with the source's translations written where they change (DESIGN §16): a
 * unit whose translation changes gets its `<target>` rewritten where it stands and is marked
 * translated (a target a reviewer settled stays), a unit whose `<source>` changed gets the
 * source's; a unit whose value is left out, or that the source lacks and Tolk synced, goes with
 * its line (one Tolk never synced stays as it is); a unit new
 * in the source is copied from it with its target, after the nearest unit before it in the
 * source that the target keeps (else before the nearest one after it, else at the end of the
 * first `<body>` / `<file>`) in its neighbours' indentation. Everything else (the declaration,
 * attribute order, notes, context groups, order, line endings) stays byte for byte.
 */
export function editInPlace(from: Parsed, onDisk: Parsed, input: WriteInput): string | undefined {
  const { locale, valueOf } = input;
  const { text, version } = onDisk;
  const edits: Edit[] = [];
  const removeUnit = (range: Range) => {
    let lineStart = text.lastIndexOf('\n', range.start - 1);
    if (lineStart > 0 && text[lineStart - 1] === '\r') lineStart--;
    const ownLine = indentBefore(text, range.start) !== undefined;
    // A unit on the first line goes with the line break after it instead.
    const after = /^\r?\n/.exec(text.slice(range.end, range.end + 2))?.[0] ?? '';
    const start = ownLine && lineStart >= 0 ? lineStart : ownLine ? 0 : range.start;
    const end = ownLine && lineStart < 0 ? range.end + after.length : range.end;
    edits.push({ start, end, replacement: '' });
  };
  const retag = (range: Range, name: string, value: string) =>
    edits.push({ ...range, replacement: withAttribute(text.slice(range.start, range.end), name, value) });
  const reads = (languages: Unit['languages']) => isTargetFile({ languages } as Unit, locale);
  if (version === '1.2') {
    for (const file of onDisk.files) if (!reads(file.languages)) retag(file, 'target-language', locale);
  } else if (!reads(onDisk.rootLanguages)) retag(onDisk.root, 'trgLang', locale);

  const sourceUnits = new Map<string, Unit>();
  for (const unit of from.units) if (!sourceUnits.has(unit.id)) sourceUnits.set(unit.id, unit);
  for (const range of onDisk.unread) removeUnit(range);
  /** The target's units that stay, by id. */
  const kept = new Map<string, Unit>();
  for (const unit of onDisk.units) {
    const origin = sourceUnits.get(unit.id);
    // A unit the source lacks stays as it is unless Tolk synced it (keepsUnwritten).
    if (!origin && !kept.has(unit.id) && keepsUnwritten(input, unit.key)) {
      kept.set(unit.id, unit);
      continue;
    }
    if (!origin || kept.has(unit.id)) {
      removeUnit(unit.range);
      continue;
    }
    const sourceMarkup = from.text.slice(origin.source.start, origin.source.end);
    const sourceChanged = text.slice(unit.source.start, unit.source.end) !== sourceMarkup;
    if (!origin.translatable) {
      kept.set(unit.id, unit);
      if (sourceChanged) edits.push({ ...unit.source, end: unit.source.end, replacement: sourceMarkup });
      continue;
    }
    const settled = unit.target && unit.state !== undefined && SETTLED.has(unit.state) && unit.segments <= 1;
    const value = settled ? undefined : valueOf(origin.key);
    if (!settled && value === undefined) {
      // A unit the file has no translation of either (no target, or one marked `new`) stays as
      // it is: nothing of it changes.
      if (translationOf(unit) === undefined && !sourceChanged) kept.set(unit.id, unit);
      else removeUnit(unit.range);
      continue;
    }
    kept.set(unit.id, unit);
    if (sourceChanged)
      edits.push({ start: unit.source.start, end: unit.source.end, replacement: sourceMarkup });
    if (settled || (!sourceChanged && value === translationOf(unit))) continue;
    edits.push(...targetEdits(text, version, unit, encode(value!, origin.codes)));
  }

  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const order = from.units;
  const insertions = new Map<number, string>();
  let homeless = false;
  const add = (at: number, piece: string) => insertions.set(at, (insertions.get(at) ?? '') + piece);
  // For each unit of the source, the nearest unit before / after it in the source that the target keeps.
  const keptBefore: (Unit | undefined)[] = [];
  const keptAfter: (Unit | undefined)[] = [];
  for (let at = 0, last: Unit | undefined; at < order.length; at++) {
    keptBefore.push(last);
    last = kept.get(order[at]!.id) ?? last;
  }
  for (let at = order.length - 1, last: Unit | undefined; at >= 0; at--) {
    keptAfter[at] = last;
    last = kept.get(order[at]!.id) ?? last;
  }
  order.forEach((unit, at) => {
    if (kept.has(unit.id) || sourceUnits.get(unit.id) !== unit) return;
    let block: string;
    const base = unit.range.start;
    const local = (edit: Edit): Edit => ({
      start: edit.start - base,
      end: edit.end - base,
      replacement: edit.replacement,
    });
    const markup = from.text.slice(unit.range.start, unit.range.end);
    if (unit.translatable) {
      const value = valueOf(unit.key);
      if (value === undefined) return;
      block = applyEdits(markup, targetEdits(from.text, version, unit, encode(value, unit.codes)).map(local));
    } else block = markup;
    block = block.replace(/\r?\n/g, newline);
    const previous = keptBefore[at];
    if (previous) {
      add(previous.range.end, newline + (indentBefore(text, previous.range.start) ?? '') + block);
      return;
    }
    const next = keptAfter[at];
    if (next) {
      const indent = indentBefore(text, next.range.start);
      if (indent === undefined) add(next.range.start, block);
      else add(next.range.start - indent.length, indent + block + newline);
      return;
    }
    // At the end of the first <body> / <file>, on its own line before the close tag.
    const end = onDisk.containerEnds[0];
    if (end === undefined) {
      homeless = true;
      return;
    }
    const indent = indentBefore(from.text, unit.range.start) ?? '';
    const closeIndent = indentBefore(text, end);
    if (closeIndent !== undefined) add(end - closeIndent.length, indent + block + newline);
    else add(end, newline + indent + block + newline);
  });
  // A target whose units have no container to go in (an empty `<body/>`) is written as a new one.
  if (homeless) return undefined;
  for (const [at, replacement] of insertions) edits.push({ start: at, end: at, replacement });
  return applyEdits(text, edits);
}
