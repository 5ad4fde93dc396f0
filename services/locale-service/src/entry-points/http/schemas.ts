import {
  LOCALE_CODE_HINT,
  LOCALE_PATTERN,
  MAX_SOURCE_VERSION as MAX_VERSION,
  canonicalLocale,
} from '@tolk/contracts';
import { ValidationError } from '@tolk/http';

// ---- requests ----

/** A locale code in the path, in its canonical spelling. */
export function parseLocaleParam(value: string): string {
  if (!LOCALE_PATTERN.test(value)) throw new ValidationError(`path.locale: ${LOCALE_CODE_HINT}`);
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

// ---- bodies and responses: in @tolk/contracts, so the gateway's OpenAPI document is generated from them ----

export {
  addLocaleBodySchema,
  localeDetailResponseSchema,
  localeListResponseSchema,
  localeResponseSchema,
  translationsResponseSchema,
  type LocaleDetailResponse,
  type LocaleListResponse,
  type LocaleResponse,
  type TranslationsResponse,
} from '@tolk/contracts';
