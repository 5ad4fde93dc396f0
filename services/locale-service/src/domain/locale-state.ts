import {
  findPluralGroups,
  judgedSourceOf,
  pluralGroupId,
  pluralGroupShapes,
  sliceClock,
  targetKeys,
  type FlatEntries,
  type TargetKeys,
} from '@tolk/locale-file';
import { compileKeyRules, inTimeSlices, type KeyRuleMatcher, type KeyRules } from '@tolk/contracts';
import type { LocaleCounts } from '../data-access/locales-repository.js';
import { NO_FINDINGS, severityOf, type KeyFindings } from './locale-findings.js';

/** What a locale's state is computed from: the source of one version and each key's revision. */
export type SourceKeys = {
  version: number;
  keys: readonly string[];
  revisions: readonly number[];
};

export type LocaleState = LocaleCounts & { missing: string[]; outdated: string[] };

/** A key's rule by its index among a locale's keys (DESIGN §13); 0 is none. */
export const RULED = { humanOnly: 1, neverTranslate: 2, exclude: 3 } as const;

/** The rule of each of a locale's keys, how many are left out or never translated, and which. */
export type RuledKeys = {
  rules: Uint8Array;
  excluded: number;
  neverTranslated: number;
  /** The keys excluded or never translated: a locale keeps no translation of theirs. */
  untranslated: ReadonlySet<string>;
  /** The keys excluded: no keys of the locale. */
  excludedKeys: ReadonlySet<string>;
};

const ruledCache = new WeakMap<readonly string[], Map<string, RuledKeys>>();
const ruling = new WeakMap<readonly string[], Map<string, Promise<RuledKeys>>>();

/** Steps of rule work (the rules' cost per character × characters) between two yields. */
const RULE_STEPS_PER_YIELD = 100_000;

/**
 * The rules of a locale's keys under `matcher`, worked out step by step: a target's plain keys
 * take their source key's rule (from `sourceRuled`), only its plural forms are matched.
 */
function* ruleSteps(
  keys: readonly string[],
  matcher: KeyRuleMatcher,
  sourceRuled?: { target: TargetKeys; ruled: RuledKeys },
): Generator<void, RuledKeys> {
  const rules = new Uint8Array(keys.length);
  let excluded = 0;
  let neverTranslated = 0;
  const untranslated = new Set<string>();
  const excludedKeys = new Set<string>();
  let steps = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const entry = sourceRuled?.target.entries[i];
    let rule: number;
    if (entry && !entry.group) rule = sourceRuled!.ruled.rules[entry.sources[0]!]!;
    else {
      const named = matcher.ruleOf(key);
      rule = named === undefined ? 0 : RULED[named];
      steps += matcher.cost * key.length;
      if (steps >= RULE_STEPS_PER_YIELD) {
        steps = 0;
        yield;
      }
    }
    if (rule === 0) continue;
    rules[i] = rule;
    if (rule === RULED.humanOnly) continue;
    if (rule === RULED.exclude) {
      excluded++;
      excludedKeys.add(key);
    } else neverTranslated++;
    untranslated.add(key);
  }
  return { rules, excluded, neverTranslated, untranslated, excludedKeys };
}

function cachedRuled(keys: readonly string[], matcher: KeyRuleMatcher): RuledKeys | undefined {
  return ruledCache.get(keys)?.get(matcher.id);
}

function remember(keys: readonly string[], matcher: KeyRuleMatcher, ruled: RuledKeys): RuledKeys {
  let perRules = ruledCache.get(keys);
  if (!perRules) ruledCache.set(keys, (perRules = new Map()));
  perRules.set(matcher.id, ruled);
  return ruled;
}

/**
 * The rules of a locale's keys, `target`'s (targetKeysOf) or else the source's, under `matcher`;
 * undefined when there are none. Worked out once per keys array and rule set: a large source
 * costs its rules once, not on every request; and a target's plain keys take the source's.
 */
export function ruledKeysOf(
  source: { readonly keys: readonly string[] },
  target: TargetKeys | undefined,
  matcher: KeyRuleMatcher | undefined,
): RuledKeys | undefined {
  if (!matcher || matcher.empty) return undefined;
  const keys = target ? target.keys : source.keys;
  const known = cachedRuled(keys, matcher);
  if (known) return known;
  const base = target && { target, ruled: ruledKeysOf(source, undefined, matcher)! };
  const steps = ruleSteps(keys, matcher, base);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return remember(keys, matcher, step.value);
}

/**
 * A locale's value of each of its keys under the key rules (DESIGN §13): none for an excluded
 * key, the source text for one never translated (a plural form's: as the ICU rules read it),
 * else the stored translation.
 */
export function ruledValueOf(
  source: FlatEntries,
  target: TargetKeys | undefined,
  rules: KeyRuleMatcher,
  translations: ReadonlyMap<string, string>,
): (key: string) => string | undefined {
  const keys = target ? target.keys : source.keys;
  const ruled = ruledKeysOf(source, target, rules);
  if (!ruled) return (key) => translations.get(key);
  const sourceTexts = judgedSourceOf(source, target).values;
  const ruleOf = new Map<string, { rule: number; sourceText: string }>();
  ruled.rules.forEach((rule, i) => {
    if (rule >= RULED.neverTranslate) ruleOf.set(keys[i]!, { rule, sourceText: sourceTexts[i]! });
  });
  return (key) => {
    const found = ruleOf.get(key);
    if (!found) return translations.get(key);
    return found.rule === RULED.neverTranslate ? found.sourceText : undefined;
  };
}

/**
 * ruledKeysOf, worked out in slices between which the event loop serves others (a large source
 * under costly rules takes up to a second), and cached for ruledKeysOf; concurrent calls for the
 * same keys and rules share one evaluation.
 */
async function ruleInSlices(
  source: { readonly keys: readonly string[] },
  target: TargetKeys | undefined,
  matcher: KeyRuleMatcher,
): Promise<void> {
  if (matcher.empty) return;
  const keys = target ? target.keys : source.keys;
  if (cachedRuled(keys, matcher)) return;
  if (target) await ruleInSlices(source, undefined, matcher);
  let pending = ruling.get(keys);
  if (!pending) ruling.set(keys, (pending = new Map()));
  let running = pending.get(matcher.id);
  if (!running) {
    const base = target && { target, ruled: ruledKeysOf(source, undefined, matcher)! };
    running = inTimeSlices(ruleSteps(keys, matcher, base)).finally(() => pending.delete(matcher.id));
    pending.set(matcher.id, running);
  }
  remember(keys, matcher, await running);
}

/**
 * The project's rules compiled, and the rules of a locale's keys (`source`'s, or `target`'s)
 * worked out, both in slices that let the event loop serve others: the synchronous code after it
 * (ruledKeysOf, computeLocaleState) finds them cached.
 */
export async function prepareKeyRules(
  rules: KeyRules,
  source?: { readonly keys: readonly string[] },
  target?: TargetKeys,
): Promise<KeyRuleMatcher> {
  const matcher = await compileKeyRules(rules);
  if (source) await ruleInSlices(source, target, matcher);
  return matcher;
}

/**
 * The keys of target locale `locale` (DESIGN §11): the source's keys with each i18next plural
 * group replaced by the locale's own forms. Undefined when they are the source's keys (no group,
 * or recognition turned off by the project), so a large source without groups costs no per-locale
 * copy of its keys.
 */
export function targetKeysOf(
  source: { readonly keys: readonly string[] },
  locale: string,
  i18nextPlurals: boolean,
): TargetKeys | undefined {
  if (!i18nextPlurals || findPluralGroups(source.keys).length === 0) return undefined;
  return targetKeys(source, locale, { i18nextPlurals });
}

/** Whether a source's keys hold a plural group, so that locales' keys may differ from them. */
export function hasPluralGroups(source: { readonly keys: readonly string[] }): boolean {
  return findPluralGroups(source.keys).length > 0;
}

const endsInOther = new WeakMap<readonly string[], boolean>();

/**
 * Whether a source's keys may be what is left of a plural group: a group, or a key ending in
 * `_other` (a group whose other forms were all removed is a plain key now).
 */
export function mayHaveHadPluralGroups(source: { readonly keys: readonly string[] }): boolean {
  let known = endsInOther.get(source.keys);
  if (known === undefined)
    endsInOther.set(source.keys, (known = source.keys.some((k) => k.endsWith('_other'))));
  return known;
}

const formerForms = new WeakMap<readonly string[], ReadonlySet<string>>();

/** The keys that are forms of a plural group in `keys`. */
function groupForms(keys: readonly string[]): ReadonlySet<string> {
  let forms = formerForms.get(keys);
  if (!forms) {
    const set = new Set<string>();
    for (const group of findPluralGroups(keys)) for (const form of group.forms) set.add(keys[form.index]!);
    formerForms.set(keys, (forms = set));
  }
  return forms;
}

const NO_GROUPS: ReadonlySet<string> = new Set();

/**
 * The groups (by pluralGroupId) whose forms differ between the keys of the version translations
 * were made from and the current keys: a form added or removed. A removed form leaves no revision
 * behind, so this is how its removal outdates the group.
 */
function reshapedGroups(madeFrom: readonly string[], current: readonly string[]): ReadonlySet<string> {
  const before = pluralGroupShapes(madeFrom);
  const reshaped = new Set<string>();
  for (const [id, shape] of pluralGroupShapes(current)) if (before.get(id) !== shape) reshaped.add(id);
  return reshaped;
}

/**
 * A locale's state against source `source` (DESIGN §5, §11), over the locale's own keys
 * (`target`, targetKeysOf; undefined: the source's keys), given the keys it has translations
 * for and the source version those translations were made from (`from`, 0 when nothing was
 * uploaded) with that version's keys (`fromKeys`; needed when `from` is older than `source` and
 * the source has plural groups or what is left of one, and the project reads plural keys). An
 * upload replaces a locale's translations whole, so one `from` holds for all of them.
 * - a key's revision is its source key's; a plural form's is the latest of its group's source
 *   forms (a change to any of them concerns every form);
 * - missing: a key with no translation;
 * - outdated: a translation made before its key's revision (revision > from), or a form of a
 *   group whose source forms were added or removed since `from`, or a plain key that was a form
 *   of a group at `from` (its group lost every other form) — then the group changed after
 *   `from`: its pending revision is taken as `from + 1`;
 * - key rules (`rules`, DESIGN §13): an excluded key is no key of the locale (not counted); a
 *   key never translated counts as translated (the target carries the source text); a key only
 *   people translate counts as any other;
 * - syncedVersion: the latest version the translations have caught up with — never later than
 *   `from` (a new source version makes every locale behind until translations are uploaded for
 *   it, as the spec's transition says), and before the earliest revision among the missing and
 *   outdated keys, so the diff from it to the current version holds every key left to translate;
 * - errorCount, warningCount (DESIGN §15): the locale's translated or outdated keys whose stored
 *   findings (`findings`, as judged when uploaded) hold an error, or warnings and no error; the
 *   findings of keys the source no longer has are not counted.
 * In time slices: 200,000 keys take tens of milliseconds.
 */
export async function computeLocaleState(
  source: SourceKeys,
  target: TargetKeys | undefined,
  translated: { has(key: string): boolean },
  from: number,
  fromKeys?: readonly string[],
  rules?: KeyRuleMatcher,
  findings: KeyFindings = NO_FINDINGS,
): Promise<LocaleState> {
  const missing: string[] = [];
  const outdated: string[] = [];
  const severity = severityOf(findings);
  let errorCount = 0;
  let warningCount = 0;
  let earliestPending = Number.POSITIVE_INFINITY;
  const olderKeys = fromKeys && from > 0 && from < source.version ? fromKeys : undefined;
  const reshaped = target && olderKeys ? reshapedGroups(olderKeys, source.keys) : NO_GROUPS;
  const wereForms = olderKeys ? groupForms(olderKeys) : NO_GROUPS;

  // One loop over the locale's keys: a plain key is its source key, a plural form takes the
  // latest revision of its group's source forms.
  const entries = target?.entries;
  const count = entries ? entries.length : source.keys.length;
  const ruled = ruledKeysOf(source, target, rules);
  const clock = sliceClock();
  for (let i = 0; i < count; i++) {
    if (clock.due()) await clock.next();
    // Excluded: no key of the locale; never translated: translated, by the source text.
    if (ruled && ruled.rules[i]! >= RULED.neverTranslate) continue;
    let key: string;
    let revision: number;
    let groupReshaped: boolean;
    if (!entries) {
      key = source.keys[i]!;
      revision = source.revisions[i]!;
      groupReshaped = wereForms.has(key);
    } else {
      const entry = entries[i]!;
      key = entry.key;
      revision = 0;
      for (const at of entry.sources) revision = Math.max(revision, source.revisions[at]!);
      groupReshaped = entry.group ? reshaped.has(pluralGroupId(entry.group)) : wereForms.has(key);
    }
    const isTranslated = translated.has(key);
    if (isTranslated && findings.size > 0) {
      const worst = severity(key);
      if (worst === 'error') errorCount++;
      else if (worst === 'warning') warningCount++;
    }
    let pending: number;
    if (!isTranslated) {
      missing.push(key);
      pending = revision;
    } else if (revision > from) {
      outdated.push(key);
      pending = revision;
    } else if (groupReshaped) {
      outdated.push(key);
      pending = from + 1;
    } else continue;
    if (pending < earliestPending) earliestPending = pending;
  }
  const keyCount = (target ? target.keys.length : source.keys.length) - (ruled?.excluded ?? 0);
  const caughtUp = earliestPending === Number.POSITIVE_INFINITY ? source.version : earliestPending - 1;
  return {
    countsVersion: source.version,
    keyCount,
    translatedCount: keyCount - missing.length - outdated.length,
    missingCount: missing.length,
    outdatedCount: outdated.length,
    syncedVersion: Math.max(0, Math.min(from, caughtUp)),
    errorCount,
    warningCount,
    missing,
    outdated,
  };
}

/**
 * A locale with no translations against a source where it has `keyCount` keys (`ruled`: with
 * their rules): everything missing but the keys never translated; the excluded are no keys.
 */
export function untranslatedCounts(version: number, keyCount: number, ruled?: RuledKeys): LocaleCounts {
  const keys = keyCount - (ruled?.excluded ?? 0);
  const translated = ruled?.neverTranslated ?? 0;
  return {
    countsVersion: version,
    keyCount: keys,
    translatedCount: translated,
    missingCount: keys - translated,
    outdatedCount: 0,
    syncedVersion: 0,
    errorCount: 0,
    warningCount: 0,
  };
}

export type LocaleStatus = 'behind' | 'up_to_date';

/** `up_to_date` once the translations have caught up with the current source version. */
export function statusOf(syncedVersion: number, sourceVersion: number): LocaleStatus {
  return syncedVersion >= sourceVersion ? 'up_to_date' : 'behind';
}
