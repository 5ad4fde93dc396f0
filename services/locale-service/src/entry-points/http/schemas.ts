import { parseTargetLocale, type IfMatch } from '@tolk/contracts';
import { ValidationError } from '@tolk/errors';
import { parseIfMatch } from '@tolk/http';

// The bodies and answers are in @tolk/contracts, so the gateway's OpenAPI document is generated
// from the schemas this service validates with.

/** A target locale code in the path, in its canonical spelling: `zh-hant` finds `zh-Hant`. */
export function parseLocaleParam(value: string, field = 'path.locale'): string {
  const parsed = parseTargetLocale(value);
  if (!parsed.ok) throw new ValidationError(`${field}: ${parsed.problem}`);
  return parsed.locale;
}

/**
 * `If-Match` of a translations upload: the revision of the translations the upload was merged
 * with, as the ETag of their download (`"7"`; also `7`, `W/"7"`, a comma-separated list), or `*`
 * (the locale exists) — read as the source upload reads its version.
 */
export function parseExpectedRevision(value: string | undefined): IfMatch | undefined {
  return parseIfMatch(value, 'a revision of the translations', Number.MAX_SAFE_INTEGER);
}
