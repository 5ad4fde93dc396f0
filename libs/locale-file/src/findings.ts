/**
 * The findings of a translation (DESIGN §15): what is wrong or worth a second look in a value
 * against its source value, for its locale, each with a kind and a severity. A person's
 * translation is stored with its findings, never refused for them; a model's answer is held to
 * every rule (judged `byModel`: any finding refuses it). The server's upload and `tolk check`
 * judge with the same function, so they give the same severity for the same value.
 *
 * Severity by kind: an *error* breaks or misleads at run time (ICU that does not parse where the
 * source does, a plural or select without `other`, a placeholder lost or added, tags lost, added
 * or unbalanced); a *warning* is what the runtime tolerates or a person may intend (a CLDR
 * category the language has but the message lacks, which `other` covers; a category the language
 * never uses; a copy of the source text; a glossary miss; an exceeded maxLength).
 *
 * The rules are those of icu-messages.ts, placeholders.ts and markup.ts, judged here: no parser of
 * its own.
 */
import { FINDING_KINDS, FINDING_SEVERITIES } from '@tolk/contracts';
import type { FlatEntries } from './diff.js';
import {
  findIcuProblems,
  shareSourceShapes,
  unusedPluralCategories,
  type KeyRange,
  type UnusedCategories,
} from './icu-messages.js';
import { markupProblem } from './markup.js';
import { comparePluralFormPlaceholders, translationLookup } from './placeholders.js';
import { pluralCategories } from './plural-categories.js';
import { sourceIndexOf, type TargetKey, type TargetKeys } from './plural-groups.js';

export { FINDING_KINDS, FINDING_SEVERITIES };
export type FindingKind = (typeof FINDING_KINDS)[number];
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

/** What is found in one key's translation. */
export type Finding = { key: string; kind: FindingKind; severity: FindingSeverity; message: string };

/** A finding as a key's own list holds it (the key said once, beside it). */
export type StoredFinding = Omit<Finding, 'key'>;

/** The severity of each kind (DESIGN §15). */
export const FINDING_SEVERITY: Readonly<Record<FindingKind, FindingSeverity>> = {
  icu: 'error',
  placeholder: 'error',
  markup: 'error',
  plural: 'warning',
  copy: 'warning',
  'max-length': 'warning',
  glossary: 'warning',
};

export type JudgeOptions = {
  /** The locale of the translations (canonical BCP 47). */
  locale: string;
  /** The source's locale: a copy of the source text is a finding only in another language. */
  sourceLocale?: string;
  /** The keys of the locale (DESIGN §11, targetKeysOf); undefined: the source's keys. */
  target?: TargetKeys;
  /**
   * Whether a key's value is a model's answer (or reused from the memory): it is held to every
   * rule, so only what refuses it is judged (no copy warning: a model keeps `OK` on purpose;
   * a category the language never uses is never selected, so harmless).
   */
  byModel?: (key: string) => boolean;
  /** A source text to be kept as it is (a glossary term kept as is): its copy is no finding. */
  keptAsIs?: (sourceText: string) => boolean;
};

const judgedSources = new WeakMap<readonly TargetKey[], FlatEntries>();

/**
 * The source value each of a locale's keys is judged against: a plural form's is its group's form
 * of the same category, else the group's `other` (the form i18next falls back to). Cached per
 * target's entries (shared by locales of the same plural categories), so the ICU parser's cache of
 * source shapes serves every judgement of a version.
 */
export function judgedSourceOf(source: FlatEntries, target: TargetKeys | undefined): FlatEntries {
  if (!target) return source;
  let cached = judgedSources.get(target.entries);
  if (!cached) {
    const origins = Int32Array.from(target.entries, sourceIndexOf);
    cached = { keys: target.keys, values: Array.from(origins, (at) => source.values[at]!) };
    shareSourceShapes(cached.values, source, origins);
    judgedSources.set(target.entries, cached);
  }
  return cached;
}

const ALL_KEYS: KeyRange = { start: 0, end: Number.POSITIVE_INFINITY };

/**
 * The findings of the translations of the locale's keys in `range` (indexes of the locale's keys,
 * so that a large upload is judged in slices), in key order and, per key, ICU first (a message
 * that does not parse loses its placeholders too: those are not judged then).
 */
export function judgeTranslations(
  source: FlatEntries,
  translations: ReadonlyMap<string, string> | FlatEntries,
  options: JudgeOptions,
  range: KeyRange = ALL_KEYS,
): Finding[] {
  const { target } = options;
  const judged = judgedSourceOf(source, target);
  // A plural form keeps the placeholders every form of its group shares (comparePluralFormPlaceholders).
  const sourcesOf = target
    ? (i: number) => target.entries[i]!.sources.map((at) => source.values[at]!)
    : (i: number) => [source.values[i]!];
  return judgeRange(judged, sourcesOf, translations, options, range);
}

/**
 * The findings of one value against its source value (`sources`: for a plural form, the value it
 * is judged against first, then the other forms of its group), for `options.locale`.
 */
export function judgeTranslation(
  key: string,
  value: string,
  sources: string | readonly [string, ...string[]],
  options: Omit<JudgeOptions, 'target'>,
): Finding[] {
  const all = typeof sources === 'string' ? [sources] : [...sources];
  return judgeRange(
    { keys: [key], values: [all[0]!] },
    () => all,
    new Map([[key, value]]),
    options,
    ALL_KEYS,
  );
}

function judgeRange(
  judged: FlatEntries,
  sourcesOf: (index: number) => string[],
  translations: ReadonlyMap<string, string> | FlatEntries,
  options: JudgeOptions,
  range: KeyRange,
): Finding[] {
  const { locale } = options;
  const byModel = options.byModel ?? (() => false);
  const icu = new Map<string, Finding>();
  for (const problem of findIcuProblems(judged, translations, locale, range)) {
    const kind = problem.kind === 'icu-syntax' ? 'icu' : 'plural';
    icu.set(problem.key, finding(problem.key, kind, problem.message));
  }
  const valueOf = translationLookup(translations);
  const copies = copyRule(options);
  const copyMessage = `the same text as the source${options.sourceLocale ? ` (${options.sourceLocale})` : ''}: not translated?`;
  const findings: Finding[] = [];
  const end = Math.min(range.end, judged.keys.length);
  for (let i = range.start; i < end; i++) {
    const key = judged.keys[i]!;
    const value = valueOf(key, i);
    if (value === undefined) continue;
    const sourceText = judged.values[i]!;
    const icuFinding = icu.get(key);
    if (icuFinding) findings.push(icuFinding);
    if (icuFinding?.kind !== 'icu') findings.push(...judgePlaceholders(key, sourcesOf(i), value));
    if (byModel(key)) continue;
    for (const unused of unusedPluralCategories(value, locale)) {
      findings.push(finding(key, 'plural', describeUnused(unused, locale)));
    }
    if (copies(sourceText, value)) findings.push(finding(key, 'copy', copyMessage));
  }
  return findings;
}

/** `{count, plural} has two, which pl never uses (pl: one, few, many, other)` */
function describeUnused({ argument, type, unused }: UnusedCategories, locale: string): string {
  const ordinal = type === 'ordinal';
  const all = pluralCategories(locale, type).join(', ');
  return (
    `{${argument}, ${ordinal ? 'selectordinal' : 'plural'}} has ${unused.join(', ')}, ` +
    `which ${locale} never uses (${locale}${ordinal ? ' ordinals' : ''}: ${all})`
  );
}

/** A finding of `kind`, with the kind's severity. */
function finding<K extends FindingKind>(key: string, kind: K, message: string): Finding & { kind: K } {
  return { key, kind, severity: FINDING_SEVERITY[kind], message };
}

function isTag(token: string): boolean {
  return token.startsWith('<');
}

/**
 * Placeholder differences of a value from its source values (a plural form's: its group's, by the
 * rule of comparePluralFormPlaceholders) as `placeholder`, tags lost, added or unbalanced as
 * `markup`.
 */
export function judgePlaceholders(
  key: string,
  sources: readonly string[],
  value: string,
): (Finding & { kind: 'placeholder' | 'markup' })[] {
  const findings: (Finding & { kind: 'placeholder' | 'markup' })[] = [];
  const difference = comparePluralFormPlaceholders(sources, value);
  const missing = difference?.missing ?? [];
  const unexpected = difference?.unexpected ?? [];
  const plain = describe(
    missing.filter((token) => !isTag(token)),
    unexpected.filter((token) => !isTag(token)),
  );
  if (plain) {
    findings.push(finding(key, 'placeholder', `placeholders differ from the source: ${plain}`));
  }
  const tags = describe(missing.filter(isTag), unexpected.filter(isTag));
  if (tags) {
    findings.push(finding(key, 'markup', `tags differ from the source: ${tags}`));
    return findings;
  }
  // The same tags may still open and close out of order; a source that does so itself is its own business.
  const problem = markupProblem(value);
  if (problem && !sources.some((text) => markupProblem(text) !== undefined)) {
    findings.push(finding(key, 'markup', `unbalanced markup: ${problem}`));
  }
  return findings;
}

function describe(missing: string[], unexpected: string[]): string | undefined {
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`lost ${missing.join(' ')}`);
  if (unexpected.length > 0) parts.push(`added ${unexpected.join(' ')}`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

function language(locale: string): string {
  return locale.split('-')[0]!.toLowerCase();
}

/** Placeholders, printf conversions and tags: what is not words of a text. */
const NOT_WORDS =
  /\{\{[^{}]*\}\}|\{[^{}]*\}|%(?:\d+\$)?[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|q|z|t|j)?[a-zA-Z@]|<[^<>]*>|\bhttps?:\/\/\S+/g;
const WORD = /\p{L}/u;

/**
 * Whether a text copied to another language is the same by nature: no word once placeholders,
 * tags and addresses are left out (`{count}`, `42`, `%d%%`). Any other copy (`OK`, a brand name)
 * is the copy warning a person may intend (DESIGN §15: a warning never fails a check).
 */
export function isSameInEveryLanguage(text: string): boolean {
  return !WORD.test(text.replace(NOT_WORDS, ' '));
}

/** Whether a value is a copy of its source text worth a warning, under `options`. */
function copyRule(options: JudgeOptions): (sourceText: string, value: string) => boolean {
  const { sourceLocale, locale, keptAsIs } = options;
  if (sourceLocale !== undefined && language(sourceLocale) === language(locale)) return () => false;
  return (sourceText, value) =>
    value === sourceText && !isSameInEveryLanguage(sourceText) && !(keptAsIs?.(sourceText) ?? false);
}

/** The worst severity of a key's findings; undefined when it has none. */
export function worstSeverity(findings: readonly Pick<Finding, 'severity'>[]): FindingSeverity | undefined {
  if (findings.length === 0) return undefined;
  return findings.some((finding) => finding.severity === 'error') ? 'error' : 'warning';
}
