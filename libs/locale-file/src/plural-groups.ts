/**
 * i18next plural groups (DESIGN §11) and the keys a target locale has because of them.
 *
 * Sibling keys `base_<category>` (ordinal: `base_ordinal_<category>`) with `base_other` present
 * and at least one other CLDR category form one plural group. For target locale L a group's keys
 * are `base_<c>` for each category c of L — not the source's forms — plus `base_zero` where the
 * source has it: i18next looks `_zero` up for a count of 0 in every language, so a source's
 * special zero text is translated too, as an ICU `=0` is. Everything else about a locale (its
 * key count, missing and outdated keys, the upload check, the download, the CLI's prompt) is
 * worked out on the **target keys** this module gives: the source's keys with each group replaced,
 * at its first form's place, by L's forms in CLDR order.
 */
import type { FlatEntries } from './diff.js';
import {
  PLURAL_CATEGORIES,
  isPluralCategory,
  pluralCategories,
  type PluralCategory,
  type PluralType,
} from './plural-categories.js';

/** Whether a project's keys are read as i18next plural keys (a project setting; on by default). */
export type PluralKeyOptions = { i18nextPlurals?: boolean };

/** One plural group of a source. */
export type PluralGroup = {
  /** The key before the suffix: `cart.item` for `cart.item_one`. */
  base: string;
  type: PluralType;
  /** The source's forms, in source order. */
  forms: { category: PluralCategory; index: number }[];
};

/** A key of a target locale and the source keys (indexes) it is translated from. */
export type TargetKey = {
  key: string;
  /** One index for a plain key; every form of the group for a group form. */
  sources: readonly number[];
  /** The group and the category this key is a form of; absent for a plain key. */
  group?: PluralGroup;
  category?: PluralCategory;
};

/** The keys of one target locale, in the order a translated file has them. */
export type TargetKeys = {
  locale: string;
  keys: string[];
  entries: TargetKey[];
  groups: PluralGroup[];
  /** Target key → its entry. */
  byKey: ReadonlyMap<string, TargetKey>;
  /** Source index of a group form → its group. */
  groupOfSource: ReadonlyMap<number, PluralGroup>;
  /** A group → its target forms, in CLDR order. */
  formsOf: ReadonlyMap<PluralGroup, TargetKey[]>;
};

const SEPARATOR = '_';
const ORDINAL = '_ordinal';

/** The suffix of `category`'s form in a group of `type`: `_few`, `_ordinal_two`. */
export function pluralSuffix(type: PluralType, category: PluralCategory): string {
  return `${type === 'ordinal' ? ORDINAL : ''}${SEPARATOR}${category}`;
}

/** The key of `category`'s form of `group`. */
export function pluralFormKey(group: Pick<PluralGroup, 'base' | 'type'>, category: PluralCategory): string {
  return `${group.base}${pluralSuffix(group.type, category)}`;
}

/** What a key says it is: a form of group `base` of `type`, or nothing. */
function splitPluralKey(
  key: string,
): { base: string; type: PluralType; category: PluralCategory } | undefined {
  const at = key.lastIndexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const category = key.slice(at + 1);
  if (!isPluralCategory(category)) return undefined;
  const stem = key.slice(0, at);
  if (stem.endsWith(ORDINAL) && stem.length > ORDINAL.length) {
    return { base: stem.slice(0, -ORDINAL.length), type: 'ordinal', category };
  }
  return { base: stem, type: 'cardinal', category };
}

const groupCache = new WeakMap<readonly string[], PluralGroup[]>();

/**
 * The plural groups of a source's keys, in the order of their first form. Cheap when there are
 * none: only keys ending in `_other` can start one. Cached by the identity of the keys array
 * (a source version's keys never change).
 */
export function findPluralGroups(keys: readonly string[]): PluralGroup[] {
  const cached = groupCache.get(keys);
  if (cached) return cached;
  const ids = new Set<string>();
  for (const key of keys) {
    if (!key.endsWith('_other')) continue;
    const split = splitPluralKey(key);
    if (split) ids.add(`${split.type}:${split.base}`);
  }
  const groups: PluralGroup[] = [];
  if (ids.size > 0) {
    const byId = new Map<string, PluralGroup>();
    for (let index = 0; index < keys.length; index++) {
      const split = splitPluralKey(keys[index]!);
      if (!split) continue;
      const id = `${split.type}:${split.base}`;
      if (!ids.has(id)) continue;
      let group = byId.get(id);
      if (!group) byId.set(id, (group = { base: split.base, type: split.type, forms: [] }));
      group.forms.push({ category: split.category, index });
    }
    for (const group of byId.values()) if (group.forms.length >= 2) groups.push(group);
    groups.sort((a, b) => a.forms[0]!.index - b.forms[0]!.index);
  }
  groupCache.set(keys, groups);
  return groups;
}

/** The categories a target locale writes for `group`: L's own, and `zero` where the source has it. */
export function targetCategories(group: PluralGroup, locale: string): PluralCategory[] {
  const own = pluralCategories(locale, group.type);
  const zero = group.type === 'cardinal' && group.forms.some((form) => form.category === 'zero');
  return zero && !own.includes('zero')
    ? PLURAL_CATEGORIES.filter((c) => c === 'zero' || own.includes(c))
    : own;
}

const targetCache = new WeakMap<readonly string[], Map<string, TargetKeys>>();

/**
 * The keys of target locale `locale` for a source's keys. With no plural group (or recognition
 * turned off), they are the source's keys: the same array. Cached per keys array and locale;
 * `entries` and `byKey`, one object per key, are made when first asked for, so a large source
 * without groups costs nothing per locale.
 */
export function targetKeys(
  source: { readonly keys: readonly string[] },
  locale: string,
  options: PluralKeyOptions = {},
): TargetKeys {
  const recognise = options.i18nextPlurals ?? true;
  const id = `${recognise ? 'plurals' : 'plain'}:${locale}`;
  let perLocale = targetCache.get(source.keys);
  const cached = perLocale?.get(id);
  if (cached) return cached;
  if (!perLocale) targetCache.set(source.keys, (perLocale = new Map()));
  const groups = recognise ? findPluralGroups(source.keys) : [];
  let result: TargetKeys;
  if (groups.length === 0) result = plainTargetKeys(source.keys, locale);
  else {
    // Locales of the same plural categories have the same keys (German's and Dutch's, Polish's
    // and Russian's): those of the first are shared, each locale's object naming its own locale.
    const shape = `shape:${pluralCategories(locale, 'cardinal').join(' ')}|${pluralCategories(locale, 'ordinal').join(' ')}`;
    let same = perLocale.get(shape);
    if (!same) perLocale.set(shape, (same = groupedTargetKeys(source.keys, locale, groups)));
    result = same.locale === locale ? same : sharedTargetKeys(same, locale);
  }
  perLocale.set(id, result);
  return result;
}

/** `keys`, of another locale of the same plural categories, as `locale`'s. */
function sharedTargetKeys(keys: TargetKeys, locale: string): TargetKeys {
  return {
    locale,
    keys: keys.keys,
    entries: keys.entries,
    get byKey() {
      return keys.byKey;
    },
    groups: keys.groups,
    groupOfSource: keys.groupOfSource,
    formsOf: keys.formsOf,
  };
}

const NO_GROUP_OF_SOURCE: ReadonlyMap<number, PluralGroup> = new Map();
const NO_FORMS: ReadonlyMap<PluralGroup, TargetKey[]> = new Map();

function plainTargetKeys(keys: readonly string[], locale: string): TargetKeys {
  let entries: TargetKey[] | undefined;
  let byKey: Map<string, TargetKey> | undefined;
  return {
    locale,
    keys: keys as string[],
    get entries() {
      return (entries ??= keys.map((key, index) => ({ key, sources: [index] })));
    },
    get byKey() {
      return (byKey ??= new Map(this.entries.map((entry) => [entry.key, entry])));
    },
    groups: [],
    groupOfSource: NO_GROUP_OF_SOURCE,
    formsOf: NO_FORMS,
  };
}

function groupedTargetKeys(sourceKeys: readonly string[], locale: string, groups: PluralGroup[]): TargetKeys {
  const groupOfSource = new Map<number, PluralGroup>();
  for (const group of groups) for (const form of group.forms) groupOfSource.set(form.index, group);
  const keys: string[] = [];
  const entries: TargetKey[] = [];
  const formsOf = new Map<PluralGroup, TargetKey[]>();
  for (let index = 0; index < sourceKeys.length; index++) {
    const group = groupOfSource.get(index);
    if (!group) {
      keys.push(sourceKeys[index]!);
      entries.push({ key: sourceKeys[index]!, sources: [index] });
      continue;
    }
    if (group.forms[0]!.index !== index) continue;
    const sources = group.forms.map((form) => form.index);
    const forms: TargetKey[] = [];
    for (const category of targetCategories(group, locale)) {
      const key = pluralFormKey(group, category);
      keys.push(key);
      forms.push({ key, sources, group, category });
    }
    entries.push(...forms);
    formsOf.set(group, forms);
  }
  let byKey: Map<string, TargetKey> | undefined;
  return {
    locale,
    keys,
    entries,
    get byKey() {
      return (byKey ??= new Map(entries.map((entry) => [entry.key, entry])));
    },
    groups,
    groupOfSource,
    formsOf,
  };
}

/**
 * Of an upload's keys that are not target keys, those that are forms of a source group that
 * `locale` does not use (`item_two` in Polish, `item_few` in German), with the group's target
 * categories; the rest are keys the source does not have at all.
 */
export function unusedPluralForms(
  target: TargetKeys,
  keys: Iterable<string>,
): { key: string; categories: PluralCategory[] }[] {
  if (target.groups.length === 0) return [];
  const byId = new Map(target.groups.map((group) => [`${group.type}:${group.base}`, group]));
  const unused: { key: string; categories: PluralCategory[] }[] = [];
  for (const key of keys) {
    if (target.byKey.has(key)) continue;
    const split = splitPluralKey(key);
    const group = split && byId.get(`${split.type}:${split.base}`);
    if (group) unused.push({ key, categories: targetCategories(group, target.locale) });
  }
  return unused;
}

/**
 * Each group of a source, by `type:base`, to the list of its forms' categories: what a
 * translation made from this source saw of the group. A group whose forms changed between the
 * version a translation was made from and the current one is outdated (a form removed leaves
 * no newer revision behind).
 */
export function pluralGroupShapes(keys: readonly string[]): Map<string, string> {
  const shapes = new Map<string, string>();
  for (const group of findPluralGroups(keys)) {
    shapes.set(
      `${group.type}:${group.base}`,
      group.forms
        .map((form) => form.category)
        .sort()
        .join(' '),
    );
  }
  return shapes;
}

/** The id `pluralGroupShapes` gives a group. */
export function pluralGroupId(group: Pick<PluralGroup, 'base' | 'type'>): string {
  return `${group.type}:${group.base}`;
}

/**
 * A target key's source values, for the checks: for a plain key its source value; for a group
 * form every source form's value (the model and the placeholder rule see all of them).
 */
export function sourceValuesOf(source: FlatEntries, entry: TargetKey): string[] {
  return entry.sources.map((index) => source.values[index]!);
}

/**
 * The source text of a target key: a plain key's source value; for a group form, the group's
 * form of the same category, else its `other` (the form i18next falls back to). What the ICU
 * rules hold a translation to, and what a key never translated carries (DESIGN §13).
 */
export function sourceTextOf(source: FlatEntries, entry: TargetKey): string {
  return source.values[sourceIndexOf(entry)]!;
}

/** The index in the source of the value sourceTextOf gives. */
export function sourceIndexOf(entry: TargetKey): number {
  const forms = entry.group?.forms ?? [];
  const form = forms.find((f) => f.category === entry.category) ?? forms.find((f) => f.category === 'other');
  return form ? form.index : entry.sources[0]!;
}
