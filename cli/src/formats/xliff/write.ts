/** A target file: the source's units with their targets, or the target on disk edited in place. */
import type { WriteInput } from '../format.js';
import { editInPlace } from './edit-in-place.js';
import { type Parsed, type Range, type Unit, parse } from './parse.js';
import { applyEdits, encode, withAttribute } from './markup.js';
import { keptTarget } from './targets.js';

export function writeXliff(input: WriteInput): Buffer {
  const { source, sourceLocale, locale, valueOf, existing } = input;
  if (existing !== undefined && (locale !== sourceLocale || input.sameFile)) {
    const onDisk = parsedOrUndefined(existing);
    const edited = onDisk && editInPlace(parse(source, 'the source file'), onDisk, input);
    if (edited !== undefined) return Buffer.from(edited, 'utf8');
  }
  const { text, version, root, files, units, unread } = parse(source, 'the source file');
  const edits: (Range & { replacement: string })[] = [];
  /** Removes a unit with the indentation of its line. */
  const removeUnit = (range: Range) => {
    let lineStart = text.lastIndexOf('\n', range.start - 1);
    const ownLine = /^\s*$/.test(text.slice(lineStart + 1, range.start));
    // A CRLF line's break goes whole.
    if (lineStart > 0 && text[lineStart - 1] === '\r') lineStart--;
    const start = ownLine ? lineStart : range.start;
    edits.push({ start: Math.max(start, 0), end: range.end, replacement: '' });
  };
  for (const range of unread) removeUnit(range);
  const own = locale === sourceLocale;
  const retag = (range: Range, name: string, value: string) =>
    edits.push({ ...range, replacement: withAttribute(text.slice(range.start, range.end), name, value) });
  if (!own) {
    if (version === '1.2') for (const file of files) retag(file, 'target-language', locale);
    else retag(root, 'trgLang', locale);
  }
  const onDisk = own || existing === undefined ? undefined : parse(existing, 'the target file');
  const unitsOnDisk = new Map<string, Unit>();
  for (const unit of onDisk?.units ?? []) if (!unitsOnDisk.has(unit.id)) unitsOnDisk.set(unit.id, unit);
  /** `target` (the markup of a whole `<target>`) in place of the unit's, or after its source. */
  const putTarget = (unit: Unit, target: string) => {
    if (unit.target) {
      edits.push({ ...unit.target, replacement: target });
      return;
    }
    const previous = text.lastIndexOf('>', unit.source.start - 1);
    const indent = text.slice(previous + 1, unit.source.start);
    edits.push({
      start: unit.source.end,
      end: unit.source.end,
      replacement: (/^\s*$/.test(indent) ? indent : '') + target,
    });
  };
  for (const unit of units) {
    const kept = onDisk && keptTarget(unit, unitsOnDisk.get(unit.id), onDisk.text);
    if (kept) {
      if (kept.segment !== undefined && unit.segment)
        edits.push({ ...unit.segment, replacement: kept.segment });
      putTarget(unit, kept.target);
      continue;
    }
    if (!unit.translatable) continue;
    const value = valueOf(unit.key);
    if (value === undefined) {
      removeUnit(unit.range);
      continue;
    }
    if (own) {
      if (value !== unit.value) edits.push({ ...unit.source.inner, replacement: encode(value, unit.codes) });
      continue;
    }
    const content = encode(value, unit.codes);
    if (unit.segment) retag(unit.segment, 'state', 'translated');
    putTarget(
      unit,
      version === '1.2' ? `<target state="translated">${content}</target>` : `<target>${content}</target>`,
    );
  }
  return Buffer.from(applyEdits(text, edits), 'utf8');
}

function parsedOrUndefined(bytes: Buffer): Parsed | undefined {
  try {
    return parse(bytes, 'the target file');
  } catch {
    return undefined;
  }
}
