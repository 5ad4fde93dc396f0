import { parseTargetLocale } from '@tolk/contracts';
import { ValidationError } from '@tolk/http';

// ---- requests ----

/** A target locale code in the path, in its canonical spelling: `zh-hant` finds `zh-Hant`. */
export function parseLocaleParam(value: string, field = 'path.locale'): string {
  const parsed = parseTargetLocale(value);
  if (!parsed.ok) throw new ValidationError(`${field}: ${parsed.problem}`);
  return parsed.locale;
}

// ---- bodies and responses: in @tolk/contracts, so the gateway's OpenAPI document is generated from them ----

export {
  addLocaleBodySchema,
  browseKeysQuerySchema,
  browseKeysResponseSchema,
  localeDetailResponseSchema,
  localeListResponseSchema,
  localeResponseSchema,
  memoryLookupBodySchema,
  memoryLookupResponseSchema,
  translationsResponseSchema,
  uploadTranslationsQuerySchema,
  type BrowseKeysResponse,
  type LocaleDetailResponse,
  type LocaleListResponse,
  type LocaleResponse,
  type MemoryLookupResponse,
  type TranslationsResponse,
} from '@tolk/contracts';
