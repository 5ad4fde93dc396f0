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

/** The edit that gives `unit`'s `<source>` the text `value`: as `origin` (of `from`) spells it, when it says it. */
function sourceTextEdit(from: Parsed, unit: Unit, origin: Unit, value: string): Edit {
  const { inner } = origin.source;
  const replacement =
    origin.value === value ? from.text.slice(inner.start, inner.end) : encode(value, origin.codes);
  return { ...unit.source.inner, replacement };
}

/**
 * The edits that give a unit of `text` the target `origin` has in `from`, as it stands there: its
 * `<target>` in place of the unit's or after its `<source>`, and its 2.0 `<segment>` start tag.
 */
function copiedTargetEdits(text: string, unit: Unit, from: Parsed, origin: Unit): Edit[] {
  const edits: Edit[] = [];
  const markup = (range: Range) => from.text.slice(range.start, range.end);
  if (unit.segment && origin.segment) edits.push({ ...unit.segment, replacement: markup(origin.segment) });
  if (unit.target) edits.push({ ...unit.target, replacement: markup(origin.target!) });
  else {
    const previous = text.lastIndexOf('>', unit.source.start - 1);
    const indent = text.slice(previous + 1, unit.source.start);
    edits.push({
      start: unit.source.end,
      end: unit.source.end,
      replacement: (/^\s*$/.test(indent) ? indent : '') + markup(origin.target!),
    });
  }
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
  // Another version of this file (a merge, WriteInput.sameFile) keeps its languages; a unit
  // read by its `<source>` (the source locale's own file) is edited by its `<source>` text, and
  // one whose value the other version holds takes that version's markup as it stands.
  const sameFile = input.sameFile === true;
  const bySource = (unit: Unit) => sameFile && !isTargetFile(unit, locale);
  const reads = (languages: Unit['languages']) => isTargetFile({ languages } as Unit, locale);
  if (!sameFile) {
    if (version === '1.2') {
      for (const file of onDisk.files) if (!reads(file.languages)) retag(file, 'target-language', locale);
    } else if (!reads(onDisk.rootLanguages)) retag(onDisk.root, 'trgLang', locale);
  }

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
    if (bySource(unit)) {
      const value = valueOf(origin.key);
      if (value === undefined) removeUnit(unit.range);
      else kept.set(unit.id, unit);
      if (value !== undefined && value !== unit.value) edits.push(sourceTextEdit(from, unit, origin, value));
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
    if (sameFile && origin.target && value === translationOf(origin))
      edits.push(...copiedTargetEdits(text, unit, from, origin));
    else edits.push(...targetEdits(text, version, unit, encode(value!, origin.codes)));
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
      const own = bySource(unit);
      if (sameFile && value === (own ? unit.value : translationOf(unit))) block = markup;
      else if (own) block = applyEdits(markup, [local(sourceTextEdit(from, unit, unit, value))]);
      else
        block = applyEdits(
          markup,
          targetEdits(from.text, version, unit, encode(value, unit.codes)).map(local),
        );
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
