/**
 * Locale codes (DESIGN §11). A project's source locale keeps the spec's pattern, which the spec
 * gives for the `locale` field of the Source file object; a target locale is any well-formed
 * BCP 47 tag that `Intl.getCanonicalLocales` accepts (`zh-Hant`, `es-419`, `sr-Latn`).
 */

/**
 * A source locale as the spec writes it: a 2–3 letter language, optionally a 2–3 letter region,
 * in any case (`en`, `pt-BR`, `pt-br`).
 */
export const SOURCE_LOCALE_PATTERN = /^[a-z]{2,3}(-[A-Z]{2,3})?$/i;

/** Why a source locale such as `zh-Hant` is refused where a target locale would not be. */
const SOURCE_LOCALE_RULE =
  'a source locale is a 2–3 letter language with an optional 2–3 letter region, such as en, de or pt-BR ' +
  "(the API spec gives the Source file's locale the pattern ^[a-z]{2,3}(-[A-Z]{2,3})?$); " +
  'codes such as zh-Hant or es-419 can be target locales';

/** The message for a code refused as a source locale; it names the value and says why. */
export function sourceLocaleProblem(code: string): string {
  return `${JSON.stringify(code)} cannot be a source locale: ${SOURCE_LOCALE_RULE}`;
}

/**
 * The one stored and returned form of a source locale: language lower-case, region upper-case
 * (`pt-br` → `pt-BR`). Not Intl's canonical form, which may rename a language (`iw` → `he`) or
 * turn it into one the spec's pattern refuses (`sh` → `sr-Latn`).
 */
export function canonicalLocale(code: string): string {
  const [language = '', region] = code.split('-');
  return region === undefined ? language.toLowerCase() : `${language.toLowerCase()}-${region.toUpperCase()}`;
}

/** The longest target locale code, as written and in its canonical form (DESIGN §11). */
export const MAX_TARGET_LOCALE_LENGTH = 35;

/**
 * The shape of a Unicode BCP 47 locale identifier (UTS #35), any case: language, script, region
 * (2 letters or 3 digits), variants, extensions, private use. A few codes of this shape are still
 * refused by Intl (a variant or an extension given twice), so a target locale must pass both. The
 * OpenAPI document publishes this pattern.
 *
 * The language has 2–3 letters: BCP 47 reserves 5–8 letter languages for registrations that
 * have never been made, and Intl accepts them, so `english` or `german` would otherwise become
 * target locales that no tool knows.
 */
export const TARGET_LOCALE_PATTERN =
  /^[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?$/i;

export const TARGET_LOCALE_HINT = 'a BCP 47 locale code such as de, pt-BR, zh-Hant or es-419';

export type TargetLocaleResult = { ok: true; locale: string } | { ok: false; problem: string };

/**
 * A target locale in its canonical form (`zh-hant` → `zh-Hant`, `EN-gb` → `en-GB`), or why
 * `code` is not one. The problem names the value and reads after the field's name.
 */
export function parseTargetLocale(code: string): TargetLocaleResult {
  const shown = JSON.stringify(code.length > 50 ? `${code.slice(0, 50)}…` : code);
  if (code.length > MAX_TARGET_LOCALE_LENGTH) {
    return {
      ok: false,
      problem: `${shown} is ${code.length} characters long; a locale code has at most ${MAX_TARGET_LOCALE_LENGTH}`,
    };
  }
  const canonical = TARGET_LOCALE_PATTERN.test(code) ? intlCanonical(code) : undefined;
  if (canonical === undefined) {
    const underscored = code.includes('_') ? parseTargetLocale(code.replaceAll('_', '-')) : undefined;
    const hint = underscored?.ok ? ` (BCP 47 separates with "-": ${underscored.locale})` : '';
    return { ok: false, problem: `${shown} is not ${TARGET_LOCALE_HINT}${hint}` };
  }
  if (canonical.length > MAX_TARGET_LOCALE_LENGTH) {
    return {
      ok: false,
      problem: `${shown} is ${canonical} in canonical form, longer than ${MAX_TARGET_LOCALE_LENGTH} characters`,
    };
  }
  return { ok: true, locale: canonical };
}

function intlCanonical(code: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(code)[0];
  } catch {
    return undefined;
  }
}
