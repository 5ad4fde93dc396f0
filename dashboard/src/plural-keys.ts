/**
 * How the key lists show an i18next plural form (DESIGN §11): a target locale has its own forms
 * (Polish `item_one`, `item_few`, `item_many`, `item_other` for an English `item_one`,
 * `item_other`), so a form is shown with its CLDR category, a number that selects it, and the
 * source text it is translated from: the source's own form of that category, or its `other`.
 * Categories and examples come from the shared library (`Intl.PluralRules`), never a table.
 */
import {
  PLURAL_CATEGORIES,
  pluralExamples,
  type PluralCategory,
  type PluralType,
} from '@tolk/locale-file/plural-categories';
import { findPluralGroups, pluralFormKey, type PluralGroup } from '@tolk/locale-file/plural-groups';

/** One key of a locale's list, labelled with the source text it is translated from. */
export type LabelledKey = {
  key: string;
  /** The source text; absent when the source (as loaded) has no value for the key. */
  sourceValue?: string;
  /** For a plural form: its category, a number that selects it, and the source form labelling it. */
  plural?: { category: PluralCategory; example?: number; sourceCategory: PluralCategory };
};

/**
 * The keys of `locale`'s missing or outdated list, labelled from the source's values (flattened
 * keys in source order). A key `base_<c>` (`base_ordinal_<c>`) of a plural group of the source is
 * a form of it, whether or not the source has that category; with recognition turned off
 * (`i18nextPlurals: false`), every key is plain.
 */
export function labelKeys(
  keys: readonly string[],
  sourceValues: ReadonlyMap<string, string>,
  locale: string,
  options: { i18nextPlurals: boolean },
): LabelledKey[] {
  const forms = options.i18nextPlurals
    ? pluralForms([...sourceValues.keys()], locale)
    : new Map<string, Form>();
  return keys.map((key) => {
    const form = forms.get(key);
    if (!form) return withValue({ key }, sourceValues.get(key));
    const sourceCategory = form.group.forms.some((f) => f.category === form.category)
      ? form.category
      : 'other';
    const plural = { category: form.category, sourceCategory, ...exampleOf(form.example) };
    return withValue({ key, plural }, sourceValues.get(pluralFormKey(form.group, sourceCategory)));
  });
}

type Form = { group: PluralGroup; category: PluralCategory; example: number | undefined };

/** Every possible form key of the source's groups → its group, category and example in `locale`. */
function pluralForms(sourceKeys: string[], locale: string): Map<string, Form> {
  const forms = new Map<string, Form>();
  const examples = {
    cardinal: examplesOf(locale, 'cardinal'),
    ordinal: examplesOf(locale, 'ordinal'),
  };
  for (const group of findPluralGroups(sourceKeys)) {
    for (const category of PLURAL_CATEGORIES) {
      forms.set(pluralFormKey(group, category), {
        group,
        category,
        example: examples[group.type].get(category) ?? zeroExample(group, category),
      });
    }
  }
  return forms;
}

function examplesOf(locale: string, type: PluralType): Map<PluralCategory, number> {
  return new Map(pluralExamples(locale, type).map(({ category, example }) => [category, example]));
}

/**
 * i18next looks `_zero` up for a count of 0 in every language, so a source's `_zero` form is
 * translated into languages CLDR gives no zero category; 0 is what selects it there.
 */
function zeroExample(group: PluralGroup, category: PluralCategory): number | undefined {
  return group.type === 'cardinal' && category === 'zero' ? 0 : undefined;
}

function exampleOf(example: number | undefined): { example?: number } {
  return example === undefined ? {} : { example };
}

function withValue(entry: LabelledKey, value: string | undefined): LabelledKey {
  return value === undefined ? entry : { ...entry, sourceValue: value };
}
