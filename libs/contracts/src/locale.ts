/**
 * A locale code as the spec writes it: a 2–3 letter language, optionally a 2–3 letter region,
 * in any case (`en`, `pt-BR`, `pt-br`).
 */
export const LOCALE_PATTERN = /^[a-z]{2,3}(-[A-Z]{2,3})?$/i;

/**
 * The one stored and returned form of a locale code matching LOCALE_PATTERN: language
 * lower-case, region upper-case (`pt-br` → `pt-BR`), so each locale has exactly one spelling.
 */
export function canonicalLocale(code: string): string {
  const [language = '', region] = code.split('-');
  return region === undefined ? language.toLowerCase() : `${language.toLowerCase()}-${region.toUpperCase()}`;
}
