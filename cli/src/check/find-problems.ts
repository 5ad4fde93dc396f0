/**
 * What `tolk check` finds wrong in one target locale's local values (DESIGN §14, §15): what a
 * value says is judged by @tolk/locale-file's findings, the function the server judges a
 * person's upload with (ICU, plural categories, placeholders, markup, copies of the source), so
 * both give the same kind and severity for the same value; then what only the CLI knows: the
 * glossary (translate/glossary.ts), `maxLength`, missing, outdated and extra keys. Nothing here
 * calls a model or the network; the caller brings what the server knows (its source, the
 * locale's outdated keys, its values).
 */
import { TYPE, parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { KeyRuleMatcher } from '@tolk/contracts';
import {
  judgeTranslations,
  pluralCategories,
  sourceTextOf,
  unusedPluralForms,
  type ParsedSource,
  type TargetKey,
  type TargetKeys,
} from '@tolk/locale-file';
import { isUnsyncedLocal } from '../files/sync-state.js';
import { entriesUsedIn, glossaryMiss, type CompiledGlossary } from '../translate/glossary.js';

/** The kinds of finding, stable ids of the `--json`, GitHub and GitLab outputs. */
export const FINDING_KINDS = [
  'missing',
  'outdated',
  'pending',
  'placeholder',
  'icu',
  'plural',
  'markup',
  'glossary',
  'max-length',
  'copy',
  'extra',
  'duplicate',
  'format',
  'unreadable',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export type Severity = 'error' | 'warning' | 'notice';

/**
 * DESIGN §15: errors break or mislead at run time (a missing key, a broken placeholder, message or
 * markup, a plural without `other`); warnings are what the runtime tolerates or a person may
 * intend (a CLDR category `other` covers, a form the language does not use, a copy of the source,
 * a glossary term not used, a label longer than its maxLength, a translation made for an older
 * source text, a key the source lacks). Errors fail the check; warnings only with `--strict`.
 * A notice never fails it: a key pending (DESIGN §17), new or changed against the server's main
 * source, is translated once it is pushed there.
 */
export const SEVERITY: Record<FindingKind, Severity> = {
  missing: 'error',
  outdated: 'warning',
  pending: 'notice',
  placeholder: 'error',
  icu: 'error',
  // A file's own plural without `other` carries its own severity (an error).
  plural: 'warning',
  markup: 'error',
  glossary: 'warning',
  'max-length': 'warning',
  copy: 'warning',
  extra: 'warning',
  // A file's own findings carry their severity (a duplicate aapt2 or msgfmt refuses is an error).
  duplicate: 'warning',
  format: 'warning',
  unreadable: 'error',
};

/** A finding before it is placed in a file. */
export type KeyFinding = { key: string; kind: FindingKind; severity: Severity; message: string };

/** A finding of one of check's own kinds, with the kind's severity. */
function finding(key: string, kind: FindingKind, message: string): KeyFinding {
  return { key, kind, severity: SEVERITY[kind], message };
}

export type LocaleInput = {
  locale: string;
  sourceLocale: string;
  /** The local source files together, as the server document. */
  source: ParsedSource;
  /** The locale's keys of the local source (DESIGN §11: each plural group as the locale's forms). */
  target: TargetKeys;
  /** The local target files' values, by key of the server document; undefined when there are none. */
  local: ReadonlyMap<string, string> | undefined;
  /** The server's source text of each key. */
  serverSource: ReadonlyMap<string, string>;
  /** What the server knows of the locale; undefined when it has no such target locale. */
  server: { values: ReadonlyMap<string, string>; outdated: ReadonlySet<string> } | undefined;
  /**
   * The keys and groups whose annotation differs between the local source and the server's
   * (DESIGN §13: context is content), when the project outdates translations on such a change.
   */
  contextChanged?: ReadonlySet<string>;
  /** Hashes of the values last synced (.tolk/state.json): needed only where the server has keys outdated. */
  synced: ReadonlyMap<string, string> | undefined;
  rules: KeyRuleMatcher;
  glossary: CompiledGlossary;
  /**
   * Keys new or changed against the server's source are checked as every other key (a missing
   * translation of one is an error); without it they are pending (DESIGN §17).
   */
  requireTranslations?: boolean;
};

export function findProblems(input: LocaleInput): KeyFinding[] {
  const { locale, source, target, rules } = input;
  const local = input.local ?? new Map<string, string>();
  const findings: KeyFinding[] = [];
  const present: { entry: TargetKey; value: string; sourceText: string }[] = [];
  // The values judged as the server judges a person's upload (below), by key.
  const values = new Map<string, string>();
  // Without --require-translations, what tells a key pending.
  const changedIndexes = input.requireTranslations
    ? undefined
    : changedSourceTexts(source, input.serverSource);

  for (const entry of target.entries) {
    const rule = rules.ruleOf(entry.key);
    if (rule === 'exclude') continue;
    const value = local.get(entry.key);
    const sourceText = sourceTextOf(source, entry);
    const pending = changedIndexes && pendingAgainstServer(input, changedIndexes, entry);
    if (value === undefined || (value === '' && sourceText !== '')) {
      findings.push(
        pending
          ? finding(entry.key, 'pending', PENDING_MESSAGE[pending])
          : finding(entry.key, 'missing', missingMessage(entry, locale, rule)),
      );
      continue;
    }
    // A key never translated carries the source text, written by `pull`: nothing to check in it.
    if (rule === 'neverTranslate') continue;
    // The server's translation, made for its older text, is translated again once the new text is
    // pushed: what it says is not judged against a text it was not made for. A value of the
    // branch's own (never uploaded) is made for the new text, and judged.
    if (
      pending === 'changed' &&
      !isUnsyncedLocal(value, input.server?.values.get(entry.key), input.synced?.get(entry.key))
    ) {
      findings.push(finding(entry.key, 'pending', PENDING_MESSAGE.changed));
      continue;
    }
    const outdated = outdatedMessage(input, entry, value);
    if (outdated) findings.push(finding(entry.key, 'outdated', outdated));
    present.push({ entry, value, sourceText });
    values.set(entry.key, value);
  }

  // The local keys that are not the locale's: forms of a plural it does not use, or extra.
  const others: string[] = [];
  for (const key of local.keys()) if (!target.byKey.has(key)) others.push(key);
  const unusedForms = new Set<string>();
  for (const { key, categories } of unusedPluralForms(target, others)) {
    unusedForms.add(key);
    if (rules.ruleOf(key) === 'exclude') continue;
    findings.push(
      finding(
        key,
        'plural',
        `a plural form ${locale} does not use (${locale}: ${categories.join(', ')}); remove it`,
      ),
    );
  }
  // A key the source does not have: renamed or deleted there (then `pull` removes it, as Tolk
  // synced it), or a translator's own (never synced: `pull` keeps it).
  for (const key of others) {
    if (unusedForms.has(key)) continue;
    findings.push(
      finding(
        key,
        'extra',
        'not a key of the source: `tolk pull` removes it where Tolk synced it (a key renamed or deleted ' +
          'in the source) and keeps it as it is where not (a key of your own); remove it if nothing reads it',
      ),
    );
  }

  const copies = new Set<string>();
  for (const found of judgeTranslations(source, values, {
    locale,
    sourceLocale: input.sourceLocale,
    target,
    keptAsIs: (text) => isKeptAsIs(text, input.glossary, locale),
  })) {
    if (found.kind === 'copy') copies.add(found.key);
    findings.push(found);
  }

  for (const { entry, value, sourceText } of present) {
    const { key } = entry;
    // A copy of the source says it all: the glossary's rendering is missing too.
    if (!copies.has(key)) {
      const miss = glossaryMiss(input.glossary, sourceText, value, locale);
      if (miss) findings.push(finding(key, 'glossary', miss));
    }
    const limit = maxLengthOf(source, entry);
    if (limit !== undefined) {
      const length = messageLength(value, locale);
      if (length > limit)
        findings.push(
          finding(key, 'max-length', `${length} characters, more than its maxLength of ${limit}`),
        );
    }
  }
  return findings;
}

const PENDING_MESSAGE = {
  new: "new: not in the server's main source yet; translated once it is pushed there",
  changed: "its source text differs from the server's main source; translated again once it is pushed there",
} as const;

/**
 * Whether a key of the local source is new against the server's source (none of its source keys
 * is there) or changed (one is new, or has another text there); undefined when it is the same.
 */
function pendingAgainstServer(
  input: LocaleInput,
  changedIndexes: ReadonlySet<number>,
  entry: TargetKey,
): keyof typeof PENDING_MESSAGE | undefined {
  const { source, serverSource } = input;
  let absent = 0;
  let changed = false;
  for (const index of entry.sources) {
    if (!serverSource.has(source.keys[index]!)) absent++;
    else if (changedIndexes.has(index)) changed = true;
  }
  if (absent === entry.sources.length) return 'new';
  return absent > 0 || changed ? 'changed' : undefined;
}

function missingMessage(entry: TargetKey, locale: string, rule: string | undefined): string {
  const who = rule === 'humanOnly' ? ' (only people translate it: humanOnly key rule)' : '';
  if (!entry.group || !entry.category) return `no translation${who}`;
  const categories = pluralCategories(locale, entry.group.type).join(', ');
  return `no ${entry.category} form (${locale}${entry.group.type === 'ordinal' ? ' ordinals' : ''}: ${categories})${who}`;
}

/**
 * A translation is outdated when its source text changed since it was made: the local source
 * differs from the server's (changed since the last `tolk push`), or the server says so and the
 * local value is the server's (a local value never uploaded is taken as made for the new text,
 * as `translate` takes it).
 */
function outdatedMessage(input: LocaleInput, entry: TargetKey, value: string): string | undefined {
  const { source, server, synced } = input;
  const changed = changedSourceTexts(source, input.serverSource);
  if (changed.size > 0 && entry.sources.some((index) => changed.has(index)))
    return 'its source text changed since the last `tolk push`; push and translate it again';
  const { contextChanged } = input;
  if (contextChanged && contextChanged.size > 0) {
    const sourceKeys = entry.sources.map((index) => source.keys[index]!);
    const annotated = entry.group ? [...sourceKeys, entry.group.base] : sourceKeys;
    const noteChanged = annotated.some((key) => pathsOf(key).some((path) => contextChanged.has(path)));
    if (noteChanged && sourceKeys.every((key) => input.serverSource.has(key)))
      return 'its annotation (the note to translators) changed since the last `tolk push`; push and translate it again';
  }
  if (!server?.outdated.has(entry.key)) return undefined;
  if (isUnsyncedLocal(value, server.values.get(entry.key), synced?.get(entry.key))) return undefined;
  return 'translated from an older source text (the server has it outdated); run `tolk translate`';
}

const changedTexts = new WeakMap<
  ParsedSource,
  { server: ReadonlyMap<string, string>; changed: Set<number> }
>();

/**
 * The indexes of the local source's values whose text differs from the server's (a key the server
 * lacks is new, not changed): worked out once for every locale checked against the same two.
 */
export function changedSourceTexts(
  source: ParsedSource,
  server: ReadonlyMap<string, string>,
): ReadonlySet<number> {
  const known = changedTexts.get(source);
  if (known?.server === server) return known.changed;
  const changed = new Set<number>();
  source.keys.forEach((key, index) => {
    const before = server.get(key);
    if (before !== undefined && before !== source.values[index]) changed.add(index);
  });
  changedTexts.set(source, { server, changed });
  return changed;
}

/** A key and the groups above it: `a.b.c`, `a.b`, `a`. */
function pathsOf(key: string): string[] {
  const paths = [key];
  for (let dot = key.lastIndexOf('.'); dot > 0; dot = key.lastIndexOf('.', dot - 1))
    paths.push(key.slice(0, dot));
  return paths;
}

/** Whether `text` is a glossary term kept as is: its copy in a translation is no finding. */
function isKeptAsIs(text: string, glossary: CompiledGlossary, locale: string): boolean {
  const keptTerms = entriesUsedIn(glossary, [text]).filter((entry) => entry.keepAsIs);
  const bare = text.trim().toLocaleLowerCase(locale);
  return keptTerms.some((entry) => entry.term.toLocaleLowerCase(locale) === bare);
}

/** The smallest `maxLength` annotated on the entry's source keys (or their plural group). */
function maxLengthOf(source: ParsedSource, entry: TargetKey): number | undefined {
  // Most sources annotate nothing: 1.5 million values are checked in a 30-locale app.
  if (source.annotations.size === 0) return undefined;
  const keys = entry.sources.map((index) => source.keys[index]!);
  if (entry.group) keys.push(entry.group.base);
  const limits = keys
    .map((key) => source.annotations.get(key)?.['maxLength'])
    .filter((limit): limit is number => typeof limit === 'number' && Number.isInteger(limit) && limit > 0);
  return limits.length > 0 ? Math.min(...limits) : undefined;
}

/**
 * A value's length as shown, in characters a reader counts (grapheme clusters): for an ICU
 * message the longest of its plural and select branches, with each argument counted as written
 * (`{name}`: its value is not known here); other text as written.
 */
export function messageLength(value: string, locale: string): number {
  const segmenter = new Intl.Segmenter(locale, { granularity: 'grapheme' });
  const count = (text: string) => [...segmenter.segment(text)].length;
  if (!value.includes('{') || value.includes('{{')) return count(value);
  let elements: MessageFormatElement[];
  try {
    elements = parse(value, { ignoreTag: true });
  } catch {
    return count(value);
  }
  const lengthOf = (items: readonly MessageFormatElement[]): number =>
    items.reduce((sum, element) => {
      if (element.type === TYPE.literal) return sum + count(element.value);
      if (element.type === TYPE.pound) return sum + 1;
      if (element.type === TYPE.plural || element.type === TYPE.select)
        return sum + Math.max(...Object.values(element.options).map((option) => lengthOf(option.value)));
      if (element.type === TYPE.tag) return sum + lengthOf(element.children);
      return sum + ('value' in element ? count(`{${String(element.value)}}`) : 0);
    }, 0);
  return lengthOf(elements);
}
