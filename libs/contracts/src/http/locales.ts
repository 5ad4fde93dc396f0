/**
 * locale-service's HTTP API (Locales): adding a target locale, the query of a translation upload
 * and the answers of the locale routes. Translation uploads are the locale file itself (parsed by
 * @tolk/locale-file), and the locale in the path is read by locale-service's own parser.
 */
import { z } from 'zod';
import { LOCALE_PATTERN } from '../locale.js';
import { epochMillis, localeCode, queryInteger } from './fields.js';
import { MAX_SOURCE_VERSION } from './source.js';

// ---- requests ----

/** `PUT .../translations?sourceVersion=N`: the source version the translations were made from. */
export const uploadTranslationsQuerySchema = z.strictObject({
  sourceVersion: queryInteger(
    1,
    MAX_SOURCE_VERSION,
    'the source version the translations were made from (a positive integer)',
  ),
});

/** `POST .../locales`: any case accepted (the spec's pattern is case-insensitive), stored canonically. */
export const addLocaleBodySchema = z.object({ locale: localeCode }, { error: 'must be a JSON object' });

// ---- responses ----

export const localeResponseSchema = z.strictObject({
  locale: z.string().regex(LOCALE_PATTERN),
  status: z.enum(['behind', 'up_to_date']),
  syncedVersion: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'The source version these translations have caught up with' }),
  sourceVersion: z.number().int().nonnegative().meta({ description: 'The current source version' }),
  keyCount: z.number().int().nonnegative(),
  translatedCount: z.number().int().nonnegative(),
  missingCount: z.number().int().nonnegative(),
  outdatedCount: z.number().int().nonnegative(),
  updatedAt: epochMillis(),
});

export const localeDetailResponseSchema = localeResponseSchema.extend({
  missing: z.array(z.string()).meta({ description: 'Source keys with no translation' }),
  outdated: z.array(z.string()).meta({ description: 'Keys whose source changed since they were translated' }),
});

export const localeListResponseSchema = z.strictObject({ locales: z.array(localeResponseSchema) });

export const translationsResponseSchema = z.strictObject({
  locale: z.string().regex(LOCALE_PATTERN),
  syncedVersion: z.number().int().nonnegative(),
  content: z.string().meta({ description: "The translations as a JSON string, in the source's nesting" }),
  updatedAt: epochMillis(),
});

export type LocaleResponse = z.infer<typeof localeResponseSchema>;
export type LocaleDetailResponse = z.infer<typeof localeDetailResponseSchema>;
export type LocaleListResponse = z.infer<typeof localeListResponseSchema>;
export type TranslationsResponse = z.infer<typeof translationsResponseSchema>;
