import { parseTargetLocale } from '@tolk/contracts';
import { ValidationError } from '@tolk/http';

// The bodies and answers are in @tolk/contracts, so the gateway's OpenAPI document is generated
// from the schemas this service validates with.

/** A target locale code in the path, in its canonical spelling: `zh-hant` finds `zh-Hant`. */
export function parseLocaleParam(value: string, field = 'path.locale'): string {
  const parsed = parseTargetLocale(value);
  if (!parsed.ok) throw new ValidationError(`${field}: ${parsed.problem}`);
  return parsed.locale;
}
