/**
 * Locales as apps spell them in paths (`pt_BR`, `values-zh-rCN`, `zh-Hant.lproj`), read into
 * canonical BCP 47 for `tolk init`.
 */
import type { LocaleFormat } from '../formats/index.js';
import { readTargetLocale } from '../locales.js';
import type { FoundFile } from './layout-search.js';

const LANGUAGE_NAMES = new Intl.DisplayNames('en', { type: 'language', fallback: 'none' });

/** Language, script and region as apps write them in paths: `zh_CN`, `en-us`, `zh_Hant_TW`. */
const LOCALE_LIKE = /^[a-z]{2,3}(?:[-_][a-z]{4})?(?:[-_](?:[a-z]{2}|\d{3}))?$/i;

export type SpelledLocale = { locale: string; spelled: string; foreign: boolean };

/**
 * The locale a name in a path spells, or undefined: in the format's own spelling (`readLocale`),
 * or else in another common one (`zh_CN` in an i18next folder, `en-US` in an ARB file name),
 * which the file set's `locales` map then names. The language must be one CLDR names: BCP 47's
 * syntax alone takes `admin` or `common` (five to eight letters) for languages, and namespaces
 * are named like that.
 */
export function localeSpelledBy(format: LocaleFormat, spelled: string): SpelledLocale | undefined {
  const native = format.readLocale(spelled);
  let locale = native;
  if (locale === undefined && LOCALE_LIKE.test(spelled)) {
    const parsed = readTargetLocale(spelled);
    if (parsed.ok) locale = parsed.locale;
  }
  if (locale === undefined) return undefined;
  const language = locale.split('-')[0]!;
  if (LANGUAGE_NAMES.of(language) === undefined) return undefined;
  return { locale, spelled, foreign: native === undefined };
}

/** `app_pt_BR` → `app` and `pt-BR`: the first split whose end is a locale. */
export function splitNameAndLocale(format: LocaleFormat, stem: string, separators: readonly string[]) {
  for (let at = 1; at < stem.length; at++) {
    const separator = stem[at]!;
    if (!separators.includes(separator)) continue;
    const locale = localeSpelledBy(format, stem.slice(at + 1));
    if (locale !== undefined) return { name: stem.slice(0, at), separator, locale };
  }
  return undefined;
}

export function foundFile(path: string, { locale, spelled, foreign }: SpelledLocale): FoundFile {
  return foreign ? { path, locale, spelled } : { path, locale };
}

/** The `locales` map of a file set whose paths spell some locale their own way. */
export function spellings(files: readonly FoundFile[]): { locales?: Record<string, string> } {
  const foreign = files.filter((file) => file.spelled !== undefined);
  if (foreign.length === 0) return {};
  return { locales: Object.fromEntries(foreign.map((file) => [file.locale, file.spelled!])) };
}
