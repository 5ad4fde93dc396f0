import { z } from 'zod';
import { normalizeEmail } from '../email.js';
import { LOCALE_PATTERN, canonicalLocale } from '../locale.js';

/** A string field whose messages say plainly whether it was missing or of the wrong type. */
export function text() {
  return z.string({
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string'),
  });
}

/** Request bodies are JSON objects; anything else is named as such. */
export function jsonObject<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.object(shape, { error: 'must be a JSON object' });
}

// 254: the longest address SMTP can deliver to (RFC 5321). Stored as normalizeEmail leaves it.
export const emailAddress = text()
  .overwrite(normalizeEmail)
  .max(254, { error: 'must be at most 254 characters' })
  .pipe(z.email({ error: 'must be an email address' }));

export const LOCALE_CODE_HINT = 'must be a locale code such as en, de or pt-BR';

/** Any case accepted (the spec's pattern is case-insensitive); stored canonically, `pt-BR`. */
export const localeCode = text()
  .regex(LOCALE_PATTERN, { error: LOCALE_CODE_HINT })
  .transform(canonicalLocale);

/** A query parameter that is a flag: exactly `true` or `false`, absent being false. */
export function queryFlag() {
  return z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((value) => value === 'true');
}

/**
 * A query parameter that is a whole number from `min` to `max`, in decimal digits only (no sign,
 * exponent, fraction or spaces, which `Number()` would accept). `hint` says what it is.
 */
export function queryInteger(min: number, max: number, hint: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `is required (${hint})` : `must be ${hint}`) })
    .regex(/^\d{1,10}$/, { error: `must be ${hint}` })
    .transform(Number)
    .refine((value) => value >= min && value <= max, { error: `must be ${hint}` });
}

/** A timestamp on the wire: epoch milliseconds. */
export function epochMillis() {
  return z.number().int().meta({ description: 'Epoch milliseconds' });
}
