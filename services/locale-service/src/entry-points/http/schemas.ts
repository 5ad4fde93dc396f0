import { z } from 'zod';
import { LOCALE_PATTERN, canonicalLocale } from '@tolk/contracts';
import { ValidationError } from '@tolk/http';

const MAX_VERSION = 2_147_483_647;
const LOCALE_HINT = 'must be a locale code such as en, de or pt-BR';

// ---- requests ----

/** `POST .../locales`: any case accepted (the spec's pattern is case-insensitive), stored canonically. */
export const addLocaleBodySchema = z.object(
  {
    locale: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
      .regex(LOCALE_PATTERN, { error: LOCALE_HINT })
      .transform(canonicalLocale),
  },
  { error: 'must be a JSON object' },
);

/** A locale code in the path, in its canonical spelling. */
export function parseLocaleParam(value: string): string {
  if (!LOCALE_PATTERN.test(value)) throw new ValidationError(`path.locale: ${LOCALE_HINT}`);
  return canonicalLocale(value);
}

/** `?sourceVersion=N`: required, the positive source version the translations were made from. */
export function parseSourceVersion(value: unknown): number {
  if (value === undefined) {
    throw new ValidationError(
      'query.sourceVersion: is required (the source version the translations were made from)',
    );
  }
  if (
    typeof value !== 'string' ||
    !/^\d{1,10}$/.test(value) ||
    Number(value) < 1 ||
    Number(value) > MAX_VERSION
  ) {
    throw new ValidationError('query.sourceVersion: must be a source version (a positive integer)');
  }
  return Number(value);
}

// ---- responses ----

export const localeResponseSchema = z.strictObject({
  locale: z.string().regex(LOCALE_PATTERN),
  status: z.enum(['behind', 'up_to_date']),
  syncedVersion: z.number().int().nonnegative(),
  sourceVersion: z.number().int().nonnegative(),
  keyCount: z.number().int().nonnegative(),
  translatedCount: z.number().int().nonnegative(),
  missingCount: z.number().int().nonnegative(),
  outdatedCount: z.number().int().nonnegative(),
  updatedAt: z.number().int(),
});

export const localeDetailResponseSchema = localeResponseSchema.extend({
  missing: z.array(z.string()),
  outdated: z.array(z.string()),
});

export const localeListResponseSchema = z.strictObject({ locales: z.array(localeResponseSchema) });

export const translationsResponseSchema = z.strictObject({
  locale: z.string().regex(LOCALE_PATTERN),
  syncedVersion: z.number().int().nonnegative(),
  content: z.string(),
  updatedAt: z.number().int(),
});

export type LocaleResponse = z.infer<typeof localeResponseSchema>;
export type LocaleDetailResponse = z.infer<typeof localeDetailResponseSchema>;
export type LocaleListResponse = z.infer<typeof localeListResponseSchema>;
export type TranslationsResponse = z.infer<typeof translationsResponseSchema>;
