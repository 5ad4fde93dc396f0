import type { IfMatch } from '@tolk/contracts';
import { ValidationError } from '@tolk/errors';

const ENTITY_TAG = /^(?:W\/)?"(\d{1,16})"$|^(\d{1,16})$/;

/**
 * `If-Match`: `"3"` (the ETag the resource is answered with), also `3` and `W/"3"`, a
 * comma-separated list of them, or `*`. Anything else is a VALIDATION_ERROR naming `what` the
 * number is (`a source version`), never a condition silently ignored. `max` bounds the number.
 */
export function parseIfMatch(value: string | undefined, what: string, max: number): IfMatch | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '*') return 'any';
  const numbers: number[] = [];
  for (const part of trimmed.split(',')) {
    const match = ENTITY_TAG.exec(part.trim());
    const digits = match?.[1] ?? match?.[2];
    if (digits === undefined || Number(digits) > max) {
      throw new ValidationError(`If-Match: must be ${what} as an entity tag, e.g. "3", or *`);
    }
    numbers.push(Number(digits));
  }
  return numbers;
}
