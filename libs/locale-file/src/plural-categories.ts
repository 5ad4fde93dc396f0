/**
 * The CLDR plural categories of a locale (DESIGN §11), from `Intl.PluralRules`, whose CLDR data
 * Node and browsers ship: never a table of languages kept by hand. Cardinal categories are those
 * of ICU `plural` and i18next plural keys (`item_few`), ordinal ones those of ICU
 * `selectordinal` and i18next `_ordinal_` keys.
 */

/** Every CLDR plural category, in CLDR's order. */
export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
export type PluralCategory = (typeof PLURAL_CATEGORIES)[number];
export type PluralType = 'cardinal' | 'ordinal';

/** A category with a number that selects it, for a translator or a model to see what it means. */
export type PluralExample = { category: PluralCategory; example: number };

export function isPluralCategory(value: string): value is PluralCategory {
  return (PLURAL_CATEGORIES as readonly string[]).includes(value);
}

/**
 * What `Intl.PluralRules` says of `locale` (a canonical BCP 47 code). For a language CLDR has no
 * rules for (`xx`), Intl would silently use the process's default locale; CLDR's root rules,
 * `other` for every number, are used instead, so no language gets another's forms by accident.
 */
function pluralRules(locale: string, type: PluralType): Rules {
  const id = `${type}:${locale}`;
  let rules = knownRules.get(id);
  if (!rules) {
    // Bounded: locale codes come from users; the few in use are back at once.
    if (knownRules.size >= MAX_KNOWN_RULES) knownRules.clear();
    knownRules.set(id, (rules = readRules(locale, type)));
  }
  return rules;
}

type Rules = { categories: readonly string[]; select: (n: number) => string };

/**
 * Looking the rules up costs about 0.15 ms (measured, Node 20), and a target locale's keys ask
 * once per plural group: thousands of groups would take a second. Kept per locale and type.
 */
const knownRules = new Map<string, Rules>();
const MAX_KNOWN_RULES = 1000;

function readRules(locale: string, type: PluralType): Rules {
  if (Intl.PluralRules.supportedLocalesOf(locale, { localeMatcher: 'lookup' }).length === 0) {
    return { categories: ['other'], select: () => 'other' };
  }
  const rules = new Intl.PluralRules(locale, { type });
  return { categories: rules.resolvedOptions().pluralCategories, select: (n) => rules.select(n) };
}

/** The categories `locale` uses, in CLDR order (`pl` → one, few, many, other); `other` always. */
export function pluralCategories(locale: string, type: PluralType = 'cardinal'): PluralCategory[] {
  const { categories } = pluralRules(locale, type);
  return PLURAL_CATEGORIES.filter((category) => categories.includes(category));
}

/**
 * Numbers tried, in order, for an example of each category: small integers first (what people
 * count; 0 after them, so Polish `many` reads 5 rather than 0, while Arabic and Welsh `zero`
 * still get 0), then fractions (Polish and Czech `other`, Russian 1.5), then the powers of ten
 * where CLDR's compact-number rules put French, Spanish and Portuguese `many` (1,000,000).
 */
const CANDIDATES: readonly number[] = [
  ...Array.from({ length: 200 }, (_, i) => i + 1),
  0,
  1.5,
  0.5,
  2.5,
  0.1,
  1.1,
  0.25,
  ...Array.from({ length: 8 }, (_, i) => 10 ** (i + 3)),
];

/**
 * Each category of `locale` with the first number (of CANDIDATES) that `Intl.PluralRules.select`
 * puts in it, in CLDR order: `pl` → one 1, few 2, many 5, other 1.5. A category no candidate
 * reaches (none in the CLDR data Node ships) is left out rather than given a wrong example.
 */
export function pluralExamples(locale: string, type: PluralType = 'cardinal'): PluralExample[] {
  const categories = pluralCategories(locale, type);
  const { select } = pluralRules(locale, type);
  const examples = new Map<PluralCategory, number>();
  for (const number of CANDIDATES) {
    const category = select(number);
    if (isPluralCategory(category) && !examples.has(category)) examples.set(category, number);
    if (examples.size === categories.length) break;
  }
  return categories.flatMap((category) => {
    const example = examples.get(category);
    return example === undefined ? [] : [{ category, example }];
  });
}
