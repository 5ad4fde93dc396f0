import { z } from 'zod';
import { normalizeEmail } from '../email.js';
import {
  MAX_TARGET_LOCALE_LENGTH,
  SOURCE_LOCALE_PATTERN,
  TARGET_LOCALE_HINT,
  TARGET_LOCALE_PATTERN,
  canonicalLocale,
  parseTargetLocale,
  sourceLocaleProblem,
} from '../locale.js';

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

/** A project's source locale: the spec's pattern, any case (it is case-insensitive), stored as `pt-BR`. */
export const sourceLocaleCode = text()
  .regex(SOURCE_LOCALE_PATTERN, { error: (issue) => sourceLocaleProblem(String(issue.input)) })
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

/** What is wrong with a target locale code, for any of its checks. */
function targetLocaleProblem(issue: { input?: unknown }): string {
  const parsed = parseTargetLocale(String(issue.input));
  return parsed.ok ? TARGET_LOCALE_HINT : parsed.problem;
}

/**
 * A target locale: a BCP 47 code (DESIGN §11), any case, stored in its canonical form
 * (`zh-hant` → `zh-Hant`). The length and pattern are what the OpenAPI document shows; Intl has
 * the last word.
 */
export const targetLocaleCode = text()
  .max(MAX_TARGET_LOCALE_LENGTH, { error: targetLocaleProblem, abort: true })
  .regex(TARGET_LOCALE_PATTERN, { error: targetLocaleProblem })
  .transform((code, ctx) => {
    const parsed = parseTargetLocale(code);
    if (parsed.ok) return parsed.locale;
    ctx.addIssue({ code: 'custom', message: parsed.problem, input: code });
    return z.NEVER;
  });

/** A timestamp on the wire: epoch milliseconds. */
export function epochMillis() {
  return z.number().int().meta({ description: 'Epoch milliseconds' });
}
