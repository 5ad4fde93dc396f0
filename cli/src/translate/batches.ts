import type { Annotation, ParsedSource } from '@tolk/locale-file';
import type { TranslationUnit } from './units.js';

export type BatchLimits = { maxKeys: number; maxChars: number };

/**
 * About 12,000 characters of source keys and text a request (some 3,000 tokens), at most 200 keys:
 * what a request costs beyond its texts (the rules, the locale's plural categories, the glossary)
 * is paid once a batch, so batches are cut by size; 200 keys keep an answer a list of ids a model
 * writes whole, and a retry asks only for the keys that failed.
 */
export const DEFAULT_BATCH_LIMITS: Readonly<BatchLimits> = Object.freeze({ maxKeys: 200, maxChars: 12_000 });

/**
 * `units` (in file order) cut into batches of at most `maxKeys` keys answered and `maxChars`
 * characters of source keys and text; a unit is never split (a plural group is asked whole), and
 * a single larger one gets a batch of its own.
 */
export function planBatches(
  units: readonly TranslationUnit[],
  valueOf: (key: string) => string,
  limits: BatchLimits = DEFAULT_BATCH_LIMITS,
): TranslationUnit[][] {
  const batches: TranslationUnit[][] = [];
  let current: TranslationUnit[] = [];
  let keys = 0;
  let chars = 0;
  for (const unit of units) {
    const size = unitSize(unit, valueOf);
    if (current.length > 0 && (keys + unit.keys.length > limits.maxKeys || chars + size > limits.maxChars)) {
      batches.push(current);
      current = [];
      keys = 0;
      chars = 0;
    }
    current.push(unit);
    keys += unit.keys.length;
    chars += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** What a unit weighs in a batch: its source keys' names and texts, in characters. */
function unitSize(unit: TranslationUnit, valueOf: (key: string) => string): number {
  return unit.sources.reduce((sum, key) => sum + key.length + valueOf(key).length, 0);
}

/**
 * The locales whose whole work is one same batch (the same source texts: typically the few keys a
 * changed source leaves in every locale), in groups asked with one request each (a multi-locale
 * request: the texts, their notes and the rules are sent once, not once a locale), each group as
 * large as one batch's limits allow for the texts' size times its locales and its answer's keys.
 * Every other locale's batches are asked one locale at a time. Returns the groups of `work`'s
 * indexes, in order; a group of one is a locale asked alone.
 */
export function shareBatches(
  work: readonly (readonly TranslationUnit[][])[],
  valueOf: (key: string) => string,
  limits: BatchLimits = DEFAULT_BATCH_LIMITS,
): number[][] {
  const groups: number[][] = [];
  const open = new Map<string, { indexes: number[]; keys: number }>();
  for (const [index, batches] of work.entries()) {
    const [units] = batches;
    if (batches.length !== 1 || !units) {
      groups.push([index]);
      continue;
    }
    const signature = units.map((unit) => unit.sources.join('\u0000')).join('\u0001');
    const chars = units.reduce((sum, unit) => sum + unitSize(unit, valueOf), 0);
    const keys = units.reduce((sum, unit) => sum + unit.keys.length, 0);
    const group = open.get(signature);
    if (
      group &&
      (group.indexes.length + 1) * chars <= limits.maxChars &&
      group.keys + keys <= limits.maxKeys
    ) {
      group.indexes.push(index);
      group.keys += keys;
      continue;
    }
    const next = { indexes: [index], keys };
    open.set(signature, next);
    groups.push(next.indexes);
  }
  return groups;
}

/**
 * The context note of each key for the translator: its own annotation and those of the groups
 * above it (`"@checkout": {...}` annotates every key under `checkout`), outermost first.
 * `description` is told as it is; other fields (`maxLength`, `placeholders`...) as `name: value`.
 */
export function contextNotes(source: ParsedSource, keys: readonly string[]): Record<string, string> {
  const notes: Record<string, string> = Object.create(null) as Record<string, string>;
  if (source.annotations.size === 0) return notes;
  for (const key of keys) {
    const parts: string[] = [];
    const segments = key.split('.');
    for (let end = 1; end <= segments.length; end++) {
      const annotation = source.annotations.get(segments.slice(0, end).join('.'));
      if (annotation) parts.push(describeAnnotation(annotation));
    }
    const note = parts.filter(Boolean).join(' ');
    if (note) notes[key] = note;
  }
  return notes;
}

function describeAnnotation(annotation: Annotation): string {
  const parts: string[] = [];
  const { description, ...rest } = annotation;
  if (typeof description === 'string' && description.trim()) parts.push(description.trim());
  const fields = Object.entries(rest).map(([name, value]) => `${name}: ${JSON.stringify(value)}`);
  if (fields.length > 0) parts.push(`(${fields.join(', ')})`);
  return parts.join(' ');
}
