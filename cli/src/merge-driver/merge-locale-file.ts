/**
 * Two sides' edits of one locale file merged key by key, in the file's own format and layout
 * (DESIGN §17, §16), through the format layer alone: each version is read through its format
 * (`LocaleFormat.read`), the documents are merged entry by entry (key-merge.ts), and the merge is
 * written as the format writes a target file on disk (`LocaleFormat.write`): one side's file is
 * edited in place to take the other side's changes, with the other side as the file new entries
 * are copied from. So a key the other side added lands next to the key it follows there, a
 * changed value is replaced where it stands, a deleted key goes with its comments, and every
 * other byte of the file stays.
 *
 * Nothing is lost without a word. A format reads a file's translations, not everything in it (a
 * comment moved, a header field, an Android colour, an entry Tolk does not read), so a side's
 * changes are applied this way only when the format carries them all: written into the common
 * ancestor, they must give back that side's file byte for byte. The merge written must then read
 * back as the merged documents. When neither side can be applied onto the other so, the merge is
 * `unmergeable` and the caller leaves it to git's text merge.
 *
 * Where both sides changed a key differently, the file is written three times, alike but for the
 * conflicting entries (as ours, the ancestor and theirs have them), and git's text merge of those
 * three puts its conflict markers around those entries alone.
 */
import { LocaleFileError, parseSourceDocument, targetKeys, type ParsedSource } from '@tolk/locale-file';
import { FormatError, type FormatOptions, type LocaleFormat } from '../formats/index.js';
import {
  type Entries,
  entriesOf,
  hasKey,
  keyOfSlot,
  mergeEntries,
  resolvedTo,
  sameEntries,
  valueIn,
} from './key-merge.js';

/** A locale the file is read as, and whether it is then the project's source file. */
export type View = { locale: string; source: boolean };

export type MergeSubject = {
  format: LocaleFormat;
  options: FormatOptions;
  sourceLocale: string;
  /** The file as the user sees it, for messages. */
  path: string;
  /**
   * The locales the file is read as: its own, and for a file of a target locale also the source
   * locale (an XLIFF target holds the source texts too); every locale of a file that holds them
   * all. The first is the file's own.
   */
  views: readonly View[];
  /** The locales written, in order: the file's own; the source first for a file of every locale. */
  written: readonly string[];
};

/** Git's text merge of three versions: its result with conflict markers, and whether it has any. */
export type TextMerge = (
  ours: Buffer,
  base: Buffer,
  theirs: Buffer,
) => { bytes: Buffer; conflicted: boolean };

export type LocaleFileMerge =
  /** Merged: the result to leave in place of ours. */
  | { status: 'merged'; bytes: Buffer }
  /** Keys changed on both sides differently: the merge with conflict markers around their entries. */
  | { status: 'conflict'; bytes: Buffer; keys: string[] }
  /** Keys changed on both sides differently, and no markers could be laid in the format: `reason`. */
  | { status: 'conflict-unplaced'; keys: string[]; reason: string }
  /** Not merged by key, for `reason`: the caller merges the file as text. */
  | { status: 'unmergeable'; reason: string };

/** One version of the file, read as each view. */
type Version = {
  name: 'ours' | 'theirs' | 'the common ancestor';
  /** Undefined for an ancestor that is no file (both sides added the file). */
  bytes: Buffer | undefined;
  parsed: Map<string, ParsedSource>;
  entries: Map<string, Entries>;
};

class Unreadable extends Error {}

export function mergeLocaleFile(
  subject: MergeSubject,
  files: { base: Buffer; ours: Buffer; theirs: Buffer },
  textMerge: TextMerge,
): LocaleFileMerge {
  const { base, ours, theirs } = files;
  if (ours.equals(theirs) || base.equals(theirs)) return { status: 'merged', bytes: ours };
  if (base.equals(ours)) return { status: 'merged', bytes: theirs };
  let versions: [Version, Version, Version];
  try {
    versions = [
      read(subject, 'the common ancestor', base.length === 0 ? undefined : base),
      read(subject, 'ours', ours),
      read(subject, 'theirs', theirs),
    ];
  } catch (error) {
    if (error instanceof Unreadable) return { status: 'unmergeable', reason: error.message };
    throw error;
  }
  const [ancestor, mine, other] = versions;
  const views = subject.views.filter(
    (view, index) =>
      index === 0 ||
      versions.some(
        (version) => !sameEntries(version.entries.get(view.locale)!, ownEntries(subject, version)),
      ),
  );
  const merged = new Map<string, Map<string, string>>();
  const conflicts = new Map<string, string[]>();
  for (const { locale } of views) {
    const merge = mergeEntries(
      ancestor.entries.get(locale)!,
      mine.entries.get(locale)!,
      other.entries.get(locale)!,
    );
    merged.set(locale, merge.merged);
    if (merge.conflicts.length > 0) conflicts.set(locale, merge.conflicts);
  }

  // Theirs applied onto ours, else ours onto theirs: the first way that carries everything.
  let way: { from: Version; onto: Version; result: Buffer } | undefined;
  for (const [from, onto] of [
    [other, mine],
    [mine, other],
  ] as const) {
    const result = carriesItsChanges(subject, from, ancestor)
      ? writes(subject, from, onto, ancestor, merged, views)
      : undefined;
    if (result) {
      way = { from, onto, result };
      break;
    }
  }
  const keys = conflictKeys(subject, conflicts);
  if (!way) {
    const reason = changesBeyondEntries(subject, ancestor, mine, other);
    return keys.length > 0
      ? { status: 'conflict-unplaced', keys, reason }
      : { status: 'unmergeable', reason };
  }
  const { from, onto, result } = way;
  if (keys.length === 0) return { status: 'merged', bytes: result };

  // The same merge with the conflicting entries as the ancestor and theirs have them.
  const resolved = (side: Version) =>
    new Map(
      [...merged].map(([locale, entries]) => [
        locale,
        resolvedTo(entries, conflicts.get(locale) ?? [], side.entries.get(locale)!),
      ]),
    );
  const asAncestor = writes(subject, from, onto, ancestor, resolved(ancestor), views);
  const asTheirs = writes(subject, from, onto, ancestor, resolved(other), views);
  if (!asAncestor || !asTheirs) {
    return {
      status: 'conflict-unplaced',
      keys,
      reason: `the ${subject.format.name} format cannot write each side's version of these keys into one file`,
    };
  }
  return { status: 'conflict', bytes: textMerge(result, asAncestor, asTheirs).bytes, keys };
}

/** A version read through the format as each view; Unreadable when it does not parse. */
function read(subject: MergeSubject, name: Version['name'], bytes: Buffer | undefined): Version {
  const version: Version = { name, bytes, parsed: new Map(), entries: new Map() };
  for (const view of subject.views) {
    let parsed: ParsedSource;
    try {
      parsed = parseSourceDocument(bytes === undefined ? {} : readAs(subject, view, bytes));
    } catch (error) {
      if (error instanceof FormatError) {
        const at = error.position ? ` at line ${error.position.line}, column ${error.position.column}` : '';
        throw new Unreadable(`${name} does not parse as ${subject.format.name}${at}: ${error.reason}`);
      }
      if (error instanceof LocaleFileError || error instanceof RangeError) {
        throw new Unreadable(`${name} cannot be read as a locale file (${error.message})`);
      }
      throw error;
    }
    version.parsed.set(view.locale, parsed);
    version.entries.set(view.locale, entriesOf(parsed));
  }
  return version;
}

function readAs(subject: MergeSubject, view: View, bytes: Buffer): Record<string, unknown> {
  return subject.format.read({
    bytes,
    locale: view.locale,
    path: subject.path,
    options: subject.options,
    ...(view.source ? { source: true } : {}),
  });
}

function ownEntries(subject: MergeSubject, version: Version): Entries {
  return version.entries.get(subject.views[0]!.locale)!;
}

/**
 * `from`'s file written onto `onto`'s (undefined: no file yet) with `values` of each written
 * locale: `from` is where new entries are copied from, an entry `from` deleted since the ancestor
 * goes, and an entry only `onto` has stays.
 */
function applied(
  subject: MergeSubject,
  from: Version,
  onto: Buffer | undefined,
  ancestor: Version,
  values: ReadonlyMap<string, Entries>,
): Buffer {
  let bytes = onto;
  for (const locale of subject.written) {
    const own = values.get(locale) ?? from.entries.get(locale)!;
    const before = ancestor.entries.get(locale)!;
    const after = from.entries.get(locale)!;
    bytes = subject.format.write({
      source: from.bytes!,
      sourceLocale: subject.sourceLocale,
      locale,
      valueOf: (key) => valueIn(own, key),
      target: targetKeys(from.parsed.get(locale)!, locale, { i18nextPlurals: false }),
      ...(bytes === undefined ? {} : { existing: bytes }),
      synced: (key) => hasKey(before, key) && !hasKey(after, key),
      sameFile: true,
      options: subject.options,
    });
  }
  return bytes!;
}

/**
 * Whether the format carries every change `from` made to the ancestor: its entries written into
 * the ancestor's file give back its bytes.
 */
function carriesItsChanges(subject: MergeSubject, from: Version, ancestor: Version): boolean {
  try {
    return applied(subject, from, ancestor.bytes, ancestor, from.entries).equals(from.bytes!);
  } catch (error) {
    if (error instanceof FormatError) return false;
    throw error;
  }
}

/**
 * `from` applied onto `onto` with the `merged` entries, when the file written reads back as them
 * in every view; undefined when it does not.
 */
function writes(
  subject: MergeSubject,
  from: Version,
  onto: Version,
  ancestor: Version,
  merged: ReadonlyMap<string, Entries>,
  views: readonly View[],
): Buffer | undefined {
  let bytes: Buffer;
  let written: Version;
  try {
    bytes = applied(subject, from, onto.bytes, ancestor, merged);
    written = read(subject, 'ours', bytes);
  } catch (error) {
    if (error instanceof FormatError || error instanceof Unreadable) return undefined;
    throw error;
  }
  return views.every(({ locale }) => sameEntries(written.entries.get(locale)!, merged.get(locale)!))
    ? bytes
    : undefined;
}

/** The keys in conflict, each once, named with its locale where it is not the file's own. */
function conflictKeys(subject: MergeSubject, conflicts: ReadonlyMap<string, string[]>): string[] {
  const own = subject.views[0]!.locale;
  const keys = new Set<string>();
  for (const [locale, slots] of conflicts) {
    for (const slot of slots) keys.add(locale === own ? keyOfSlot(slot) : `${keyOfSlot(slot)} (${locale})`);
  }
  return [...keys];
}

/** Why neither side could be applied onto the other, for the message. */
function changesBeyondEntries(
  subject: MergeSubject,
  ancestor: Version,
  ours: Version,
  theirs: Version,
): string {
  const beyond = [ours, theirs].filter((side) => !carriesItsChanges(subject, side, ancestor));
  const name = subject.format.name;
  if (beyond.length === 2)
    return `both sides change more of the file than its entries (comments, headers or content the ${name} format does not read)`;
  if (beyond.length === 1)
    return `${beyond[0]!.name} changes more of the file than its entries (comments, headers or content the ${name} format does not read), and the other side's changes cannot be written into it`;
  return `the ${name} format cannot write the merged entries into either side's file`;
}
