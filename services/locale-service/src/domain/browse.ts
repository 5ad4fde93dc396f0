import {
  PLURAL_CATEGORIES,
  type StoredFinding,
  type Annotation,
  type FlatEntries,
  type TargetKey,
  type TargetKeys,
} from '@tolk/locale-file';

import type { KeyFindings } from './locale-findings.js';
import type { ShownProvenance } from '@tolk/contracts';
import { shownProvenanceOf, type ProvenanceMap } from './provenance.js';
import type { Slices } from './slice-queue.js';

export type KeyState = 'missing' | 'outdated' | 'translated';

/** Keys with a finding of this severity in a shown locale; `any`: of either. */
export type FindingsFilter = 'error' | 'warning' | 'any';

/** One target locale as the translation browser shows it. */
export type BrowsedLocale = {
  locale: string;
  /** Its keys (undefined: the source's). */
  target: TargetKeys | undefined;
  /** A key's value as downloads give it (a never-translated key: its source text). */
  valueOf: (key: string) => string | undefined;
  /** Whether the project's key rules leave the key out of targets. */
  excluded: (key: string) => boolean;
  /** Who wrote each stored value, where it is known. */
  provenance: ProvenanceMap;
  /** The stored values (a key with none has no writer). */
  stored: ReadonlyMap<string, string>;
  /** The findings of each stored value (DESIGN §15). */
  findings: KeyFindings;
  missing: ReadonlySet<string>;
  outdated: ReadonlySet<string>;
  /** Its values in lower case, kept by the searches that read them for the next one. */
  lowered: Map<string, string>;
};

export type BrowsedKey = {
  key: string;
  source: string | null;
  description: string | null;
  locales: Record<
    string,
    { value: string | null; status: KeyState; provenance: ShownProvenance | null; findings: StoredFinding[] }
  >;
};

/** A row of the browser: a key of the shown locales, where it stands and its source text. */
type Row = {
  key: string;
  order: number;
  category: number;
  entry: TargetKey | undefined;
  source: string | null;
  /** The key and its source text in lower case, once a search has read them. */
  lowered?: readonly [key: string, source: string];
};

/** The rows of the browser (browseRows): computed once, cut into pages by every request. */
export type BrowseRows = readonly Row[];

const CATEGORY_ORDER = new Map<string, number>(PLURAL_CATEGORIES.map((category, i) => [category, i + 1]));

function compareRows(a: Row, b: Row): number {
  return a.order - b.order || a.category - b.category || a.key.localeCompare(b.key);
}

/** The source text of a form the source lacks: its group's form of that category, else `other`. */
function groupSourceText(source: FlatEntries, entry: TargetKey | undefined): string | null {
  const forms = entry?.group?.forms ?? [];
  const form = forms.find((f) => f.category === entry?.category) ?? forms.find((f) => f.category === 'other');
  return form ? source.values[form.index]! : null;
}

/**
 * The rows of the browser: every key of the shown locales once, in the source's order; a plural
 * group's forms (each locale's own) together at the group's place, in CLDR order. A source form
 * that no shown locale has (Polish `_few` when only German is shown) is no row. Worked out in
 * slices of `slices`, so that a large source holds no one else's request.
 */
export async function browseRows(
  source: FlatEntries,
  locales: readonly BrowsedLocale[],
  slices: Slices,
): Promise<BrowseRows> {
  const index = new Map<string, number>();
  const sourceRows: Row[] = [];
  await slices.each(source.keys.length, (i) => {
    const key = source.keys[i]!;
    index.set(key, i);
    sourceRows.push({ key, order: i, category: 0, entry: undefined, source: source.values[i]! });
  });
  // The locales' own forms that are no source keys; each row's entry is the first locale's.
  const extras = new Map<string, Row>();
  for (const { target } of locales) {
    if (!target) continue;
    await slices.each(target.entries.length, (i) => {
      const entry = target.entries[i]!;
      const at = index.get(entry.key);
      const known = at === undefined ? extras.get(entry.key) : sourceRows[at];
      if (known) {
        known.entry ??= entry;
        return;
      }
      extras.set(entry.key, {
        key: entry.key,
        order: Math.min(...entry.sources),
        category: CATEGORY_ORDER.get(entry.category ?? '') ?? 0,
        entry,
        source: null,
      });
    });
  }
  const forms = await slices.run(() =>
    [...extras.values()]
      .map((row) => ({ ...row, source: groupSourceText(source, row.entry) }))
      .sort(compareRows),
  );
  // The source's rows are in order already: the forms go in among them.
  const shown = (row: Row) => locales.length === 0 || locales.some((locale) => hasKey(locale, row.key));
  const rows: Row[] = [];
  let next = 0;
  let form = 0;
  await slices.each(sourceRows.length + forms.length, () => {
    const a = sourceRows[next];
    const b = forms[form];
    const row = !b || (a && compareRows(a, b) <= 0) ? sourceRows[next++]! : forms[form++]!;
    if (shown(row)) rows.push(row);
  });
  return rows;
}

function hasKey(locale: BrowsedLocale, key: string): boolean {
  return (!locale.target || locale.target.byKey.has(key)) && !locale.excluded(key);
}

/**
 * Who wrote a stored value (`unknown`: stored before provenance was kept); none for a key with no
 * stored value (a never-translated key given its source text).
 */
function provenanceOf(locale: BrowsedLocale, key: string): ShownProvenance | null {
  return shownProvenanceOf(locale.provenance, locale.stored, key);
}

/** The locale's value of `key` in lower case ('' for none), as searches compare it. */
function loweredValue(locale: BrowsedLocale, key: string): string {
  let lowered = locale.lowered.get(key);
  if (lowered === undefined) {
    lowered = (locale.valueOf(key) ?? '').toLowerCase();
    locale.lowered.set(key, lowered);
  }
  return lowered;
}

const NONE: readonly StoredFinding[] = [];

/** The findings of the locale's stored value of `key`; none for a key it has no stored value of. */
function findingsOf(locale: BrowsedLocale, key: string): readonly StoredFinding[] {
  if (locale.missing.has(key)) return NONE;
  return locale.findings.get(key) ?? NONE;
}

function hasFinding(locale: BrowsedLocale, key: string, filter: FindingsFilter): boolean {
  const found = findingsOf(locale, key);
  return filter === 'any' ? found.length > 0 : found.some((finding) => finding.severity === filter);
}

function stateOf(locale: BrowsedLocale, key: string): KeyState {
  if (locale.missing.has(key)) return 'missing';
  if (locale.outdated.has(key)) return 'outdated';
  return 'translated';
}

/** What a page of the translation browser shows: its filters and where it starts. */
export type BrowseQuery = {
  status?: KeyState;
  by?: ShownProvenance['by'];
  findings?: FindingsFilter;
  q?: string;
  offset: number;
  limit: number;
};

/**
 * One page of the translation browser (DESIGN §13): the keys of `rows` (browseRows) with their
 * source text, annotation and each shown locale's value, state and findings, filtered by `status`
 * (in at least one shown locale), `by`, `findings` and `q` (in the key, the source text or a shown value,
 * case-insensitive). Unfiltered, the page is cut from the rows as they are; a filter looks at every
 * row, in slices of `slices`.
 */
export async function browsePage(
  input: BrowseQuery & {
    source: FlatEntries & { readonly annotations: ReadonlyMap<string, Readonly<Annotation>> };
    rows: BrowseRows;
    locales: readonly BrowsedLocale[];
  },
  slices: Slices,
): Promise<{ total: number; keys: BrowsedKey[] }> {
  const { source, rows, locales, status, by, findings, offset, limit } = input;
  const needle = input.q?.trim().toLowerCase() || undefined;
  const shownIn = (row: Row) => locales.filter((locale) => hasKey(locale, row.key));
  const keyOf = (row: Row, has: readonly BrowsedLocale[]): BrowsedKey => {
    const description = source.annotations.get(row.key)?.description;
    return {
      key: row.key,
      source: row.source,
      description: typeof description === 'string' ? description : null,
      locales: Object.fromEntries(
        has.map((locale) => [
          locale.locale,
          {
            value: locale.valueOf(row.key) ?? null,
            status: stateOf(locale, row.key),
            provenance: provenanceOf(locale, row.key),
            findings: [...findingsOf(locale, row.key)],
          },
        ]),
      ),
    };
  };
  if (!status && !by && !findings && !needle) {
    return {
      total: rows.length,
      keys: rows.slice(offset, offset + limit).map((row) => keyOf(row, shownIn(row))),
    };
  }
  const page: BrowsedKey[] = [];
  let total = 0;
  await slices.each(rows.length, (i) => {
    const row = rows[i]!;
    const has = shownIn(row);
    if (status && !has.some((locale) => stateOf(locale, row.key) === status)) return;
    if (by && !has.some((locale) => provenanceOf(locale, row.key)?.by === by)) return;
    if (findings && !has.some((locale) => hasFinding(locale, row.key, findings))) return;
    if (needle) {
      row.lowered ??= [row.key.toLowerCase(), (row.source ?? '').toLowerCase()];
      const found =
        row.lowered[0].includes(needle) ||
        row.lowered[1].includes(needle) ||
        has.some((locale) => loweredValue(locale, row.key).includes(needle));
      if (!found) return;
    }
    total++;
    if (total > offset && page.length < limit) page.push(keyOf(row, has));
  });
  return { total, keys: page };
}
