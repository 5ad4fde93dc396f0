/**
 * locale-service's HTTP API (Locales): adding a target locale, the query of a translation upload
 * and the answers of the locale routes. Translation uploads are the locale file itself (parsed by
 * @tolk/locale-file), and the locale in the path is read by locale-service's own parser.
 */
import { z } from 'zod';
import { MAX_TARGET_LOCALE_LENGTH, TARGET_LOCALE_PATTERN } from '../locale.js';
import { epochMillis, queryInteger, targetLocaleCode } from './fields.js';
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

/** `POST .../locales`: a BCP 47 code in any case, stored in its canonical form (DESIGN §11). */
export const addLocaleBodySchema = z.object({ locale: targetLocaleCode }, { error: 'must be a JSON object' });

// ---- responses ----

/** A target locale as the answers give it: canonical (`zh-Hant`, `es-419`). */
const targetLocale = z.string().max(MAX_TARGET_LOCALE_LENGTH).regex(TARGET_LOCALE_PATTERN);

export const localeResponseSchema = z.strictObject({
  locale: targetLocale,
  status: z.enum(['behind', 'up_to_date']),
  syncedVersion: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'The source version these translations have caught up with' }),
  sourceVersion: z.number().int().nonnegative().meta({ description: 'The current source version' }),
  keyCount: z.number().int().nonnegative().meta({
    description:
      "The locale's keys: the source's, with each i18next plural group as the locale's own CLDR forms",
  }),
  translatedCount: z.number().int().nonnegative(),
  missingCount: z.number().int().nonnegative(),
  outdatedCount: z.number().int().nonnegative(),
  updatedAt: epochMillis(),
});

export const localeDetailResponseSchema = localeResponseSchema.extend({
  missing: z.array(z.string()).meta({
    description: "The locale's keys with no translation (a plural group's forms are the locale's own)",
  }),
  outdated: z.array(z.string()).meta({
    description:
      'Keys whose source changed since they were translated (any change to a plural group outdates all its forms)',
  }),
});

export const localeListResponseSchema = z.strictObject({ locales: z.array(localeResponseSchema) });

export const translationsResponseSchema = z.strictObject({
  locale: targetLocale,
  syncedVersion: z.number().int().nonnegative(),
  content: z.string().meta({ description: "The translations as a JSON string, in the source's nesting" }),
  updatedAt: epochMillis(),
});

export type LocaleResponse = z.infer<typeof localeResponseSchema>;
export type LocaleDetailResponse = z.infer<typeof localeDetailResponseSchema>;
export type LocaleListResponse = z.infer<typeof localeListResponseSchema>;
export type TranslationsResponse = z.infer<typeof translationsResponseSchema>;
