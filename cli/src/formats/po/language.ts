/**
 * A catalog's language: how PO files spell a locale (`pt_BR`), and gettext's `Plural-Forms`, its
 * indexes mapped onto CLDR's plural categories.
 */
import { parseTargetLocale } from '@tolk/contracts';
import { pluralCategories, type PluralCategory } from '@tolk/locale-file';
import { bcp47Spelling } from '../bcp47-spelling.js';

export const spelling = bcp47Spelling('_');

/** gettext's Plural-Forms of languages whose CLDR categories are more than `other`. */
const PLURAL_FORMS: Record<string, string> = {
  ...Object.fromEntries(
    ['ja', 'ko', 'zh', 'vi', 'th', 'id', 'ms', 'lo', 'my', 'km', 'yue'].map((l) => [
      l,
      'nplurals=1; plural=0;',
    ]),
  ),
  ...Object.fromEntries(
    [
      'en',
      'de',
      'nl',
      'sv',
      'da',
      'nb',
      'nn',
      'no',
      'fi',
      'et',
      'it',
      'es',
      'el',
      'hu',
      'bg',
      'tr',
      'ca',
      'eu',
      'gl',
      'af',
      'sq',
      'az',
      'ka',
      'kk',
      'ky',
      'mn',
      'ur',
      'sw',
      'ta',
      'te',
      'ml',
      'kn',
      'mr',
      'ne',
      'or',
      'pa',
      'gu',
      'as',
      'ps',
      'uz',
      'fy',
      'lb',
      'eo',
      'nl',
      'pt-PT',
    ].map((l) => [l, 'nplurals=2; plural=(n != 1);']),
  ),
  ...Object.fromEntries(
    ['fr', 'pt', 'hi', 'bn', 'fa', 'am', 'hy', 'zu'].map((l) => [l, 'nplurals=2; plural=(n > 1);']),
  ),
  is: 'nplurals=2; plural=(n%10 != 1 || n%100 == 11);',
  mk: 'nplurals=2; plural=(n%10 != 1 || n%100 == 11);',
  pl: 'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  ru: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  uk: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  be: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  hr: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  sr: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  bs: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  cs: 'nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);',
  sk: 'nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);',
  lt: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);',
  lv: 'nplurals=3; plural=(n%10==0 || (n%100>=11 && n%100<=19) ? 0 : n%10==1 && n%100!=11 ? 1 : 2);',
  ro: 'nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100>0 && n%100<20)) ? 1 : 2);',
  he: 'nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);',
  sl: 'nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);',
  ga: 'nplurals=5; plural=(n==1 ? 0 : n==2 ? 1 : n>=3 && n<=6 ? 2 : n>=7 && n<=10 ? 3 : 4);',
  cy: 'nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n==3 ? 3 : n==6 ? 4 : 5);',
  ar: 'nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);',
};

type PluralForms = { nplurals: number; plural: (n: number) => number; text: string };

/** `nplurals=N; plural=EXPR;`, the expression evaluated as C (only integer arithmetic, n). */
export function parsePluralForms(text: string): PluralForms | undefined {
  const match = /^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+);?\s*$/.exec(text);
  if (!match) return undefined;
  const expression = match[2]!;
  // Only `n`, digits and C's operators (no `/`: C's is integer division, JavaScript's is not).
  if (!/^[\sn0-9()!=<>&|?:%+\-*]*$/.test(expression)) return undefined;
  let evaluate: (n: number) => unknown;
  try {
    evaluate = new Function('n', `"use strict"; return (${expression});`) as (n: number) => unknown;
    evaluate(1);
  } catch {
    return undefined;
  }
  return { nplurals: Number(match[1]), plural: (n) => Number(evaluate(n)), text: text.trim() };
}

/**
 * The CLDR category of each gettext index: the category `Intl.PluralRules` gives the first count
 * of 0..1000 the expression sends to that index (`other` for an index no count reaches).
 */
export function indexCategories(forms: PluralForms, locale: string): PluralCategory[] {
  const rules = new Intl.PluralRules(locale);
  const categories: (PluralCategory | undefined)[] = Array.from({ length: forms.nplurals }, () => undefined);
  for (let n = 0; n <= 1000; n++) {
    const index = forms.plural(n);
    if (index >= 0 && index < forms.nplurals && categories[index] === undefined) {
      categories[index] = rules.select(n) as PluralCategory;
    }
  }
  return categories.map((category) => category ?? 'other');
}

/** gettext's Plural-Forms for a locale; undefined for a language not in the table. */
export function pluralFormsOf(locale: string): string | undefined {
  const language = locale.split('-')[0]!;
  const known = PLURAL_FORMS[locale] ?? PLURAL_FORMS[language];
  if (known) return known;
  if (pluralCategories(locale, 'cardinal').every((category) => category === 'other'))
    return 'nplurals=1; plural=0;';
  return undefined;
}

export function sameLanguage(spelled: string | undefined, locale: string): boolean {
  if (!spelled) return false;
  const parsed = parseTargetLocale(spelled.replaceAll('_', '-'));
  return parsed.ok && parsed.locale === locale;
}
