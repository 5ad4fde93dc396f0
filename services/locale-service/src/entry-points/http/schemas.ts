import { LOCALE_CODE_HINT, LOCALE_PATTERN, canonicalLocale } from '@tolk/contracts';
import { ValidationError } from '@tolk/http';

// ---- requests ----

/** A locale code in the path, in its canonical spelling. */
export function parseLocaleParam(value: string): string {
  if (!LOCALE_PATTERN.test(value)) throw new ValidationError(`path.locale: ${LOCALE_CODE_HINT}`);
  return canonicalLocale(value);
}

// ---- bodies and responses: in @tolk/contracts, so the gateway's OpenAPI document is generated from them ----

export {
  addLocaleBodySchema,
  localeDetailResponseSchema,
  localeListResponseSchema,
  localeResponseSchema,
  translationsResponseSchema,
  uploadTranslationsQuerySchema,
  type LocaleDetailResponse,
  type LocaleListResponse,
  type LocaleResponse,
  type TranslationsResponse,
} from '@tolk/contracts';
