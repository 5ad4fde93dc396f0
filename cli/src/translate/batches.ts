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
    const size = unit.sources.reduce((sum, key) => sum + key.length + valueOf(key).length, 0);
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
