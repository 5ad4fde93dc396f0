import { MAX_SOURCE_VERSION as MAX_VERSION, parseTargetLocale } from '@tolk/contracts';
import { ValidationError } from '@tolk/http';

// ---- requests ----

/** A target locale code in the path, in its canonical spelling: `zh-hant` finds `zh-Hant`. */
export function parseLocaleParam(value: string): string {
  const parsed = parseTargetLocale(value);
  if (!parsed.ok) throw new ValidationError(`path.locale: ${parsed.problem}`);
  return parsed.locale;
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
