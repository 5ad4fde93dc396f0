import {
  PLURAL_CATEGORIES,
  type Annotation,
  type FlatEntries,
  type TargetKey,
  type TargetKeys,
} from '@tolk/locale-file';

import type { Provenance, ProvenanceMap } from './provenance.js';

export type KeyState = 'missing' | 'outdated' | 'translated';

/** One target locale as the translation browser shows it. */
export type BrowsedLocale = {
  locale: string;
  /** Its keys (undefined: the source's). */
  target: TargetKeys | undefined;
  /** A key's value as downloads give it (a never-translated key: its source text). */
  valueOf: (key: string) => string | undefined;
  /** Whether the project's key rules leave the key out of targets. */
  excluded: (key: string) => boolean;
  /** Who wrote each stored value. */
  provenance: ProvenanceMap;
  missing: ReadonlySet<string>;
  outdated: ReadonlySet<string>;
};

export type BrowsedKey = {
  key: string;
  source: string | null;
  description: string | null;
  locales: Record<string, { value: string | null; status: KeyState; provenance: Provenance | null }>;
};

type Row = { key: string; order: number; category: number; entry: TargetKey | undefined };

const CATEGORY_ORDER = new Map<string, number>(PLURAL_CATEGORIES.map((category, i) => [category, i + 1]));

/**
 * The rows of the browser: every key of the shown locales once, in the source's order; a plural
 * group's forms (each locale's own) together at the group's place, in CLDR order.
 */
function rowsOf(source: FlatEntries, locales: readonly BrowsedLocale[]): Row[] {
  const rows = new Map<string, Row>();
  for (let i = 0; i < source.keys.length; i++) {
    rows.set(source.keys[i]!, { key: source.keys[i]!, order: i, category: 0, entry: undefined });
  }
  for (const { target } of locales) {
    if (!target) continue;
    for (const entry of target.entries) {
      const known = rows.get(entry.key);
      if (known) {
        known.entry ??= entry;
        continue;
      }
      rows.set(entry.key, {
        key: entry.key,
        order: Math.min(...entry.sources),
        category: CATEGORY_ORDER.get(entry.category ?? '') ?? 0,
        entry,
      });
    }
  }
  // A source form that no shown locale has (Polish `_few` when only German is shown) is no row.
  const shown = (key: string) => locales.length === 0 || locales.some((locale) => hasKey(locale, key));
  return [...rows.values()]
    .filter((row) => shown(row.key))
    .sort((a, b) => a.order - b.order || a.category - b.category || a.key.localeCompare(b.key));
}

/** The source text of a key: its own, or for a form the source lacks, its group's form of that category, else `other`. */
function sourceTextOf(source: FlatEntries, index: ReadonlyMap<string, number>, row: Row): string | null {
  const own = index.get(row.key);
  if (own !== undefined) return source.values[own]!;
  const forms = row.entry?.group?.forms ?? [];
  const form =
    forms.find((f) => f.category === row.entry?.category) ?? forms.find((f) => f.category === 'other');
  return form ? source.values[form.index]! : null;
}

function hasKey(locale: BrowsedLocale, key: string): boolean {
  return (!locale.target || locale.target.byKey.has(key)) && !locale.excluded(key);
}

/** A stored value's provenance; none for a value the rules give (a never-translated key's source text). */
function provenanceOf(locale: BrowsedLocale, key: string): Provenance | undefined {
  return locale.provenance.get(key);
}

function stateOf(locale: BrowsedLocale, key: string): KeyState {
  if (locale.missing.has(key)) return 'missing';
  if (locale.outdated.has(key)) return 'outdated';
  return 'translated';
}

/**
 * One page of the translation browser (DESIGN §13): the keys of `source` with their source text,
 * annotation and each shown locale's value and state, filtered by `status` (in at least one shown
 * locale) and `q` (in the key, the source text or a shown value, case-insensitive).
 */
export function browsePage(input: {
  source: FlatEntries & { readonly annotations: ReadonlyMap<string, Readonly<Annotation>> };
  locales: readonly BrowsedLocale[];
  status?: KeyState;
  by?: Provenance['by'];
  q?: string;
  offset: number;
  limit: number;
}): { total: number; keys: BrowsedKey[] } {
  const { source, locales, status } = input;
  const index = new Map(source.keys.map((key, i) => [key, i]));
  const needle = input.q?.trim().toLowerCase() || undefined;
  const page: BrowsedKey[] = [];
  let total = 0;
  for (const row of rowsOf(source, locales)) {
    const has = locales.filter((locale) => hasKey(locale, row.key));
    if (status && !has.some((locale) => stateOf(locale, row.key) === status)) continue;
    if (input.by && !has.some((locale) => provenanceOf(locale, row.key)?.by === input.by)) continue;
    const text = sourceTextOf(source, index, row);
    if (needle) {
      const found =
        row.key.toLowerCase().includes(needle) ||
        (text ?? '').toLowerCase().includes(needle) ||
        has.some((locale) => (locale.valueOf(row.key) ?? '').toLowerCase().includes(needle));
      if (!found) continue;
    }
    total++;
    if (total <= input.offset || page.length >= input.limit) continue;
    const description = source.annotations.get(row.key)?.description;
    page.push({
      key: row.key,
      source: text,
      description: typeof description === 'string' ? description : null,
      locales: Object.fromEntries(
        has.map((locale) => [
          locale.locale,
          {
            value: locale.valueOf(row.key) ?? null,
            status: stateOf(locale, row.key),
            provenance: provenanceOf(locale, row.key) ?? null,
          },
        ]),
      ),
    });
  }
  return { total, keys: page };
}
