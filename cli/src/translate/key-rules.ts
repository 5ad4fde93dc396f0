import { keyRuleMatcher, type KeyRuleMatcher, type KeyRules } from '@tolk/contracts';
import type { TargetKeys } from '@tolk/locale-file';
import type { TranslationUnit } from './units.js';

/**
 * The project's key rules (DESIGN §13) as `translate`, `pull` and `status` apply them: keys only
 * people translate, keys never translated (targets carry the source text), keys left out of
 * targets. A server that does not send them has none.
 */
export function projectKeyRules(project: { settings: { keyRules?: KeyRules } }): KeyRuleMatcher {
  return keyRuleMatcher(project.settings.keyRules);
}

/**
 * The units the model may be asked for: none with a key (target or source) that has a rule. A
 * plural group goes whole or not at all, so a pattern matching any of its forms holds it back.
 */
export function unitsForModel(units: TranslationUnit[], rules: KeyRuleMatcher): TranslationUnit[] {
  if (rules.empty) return units;
  const free = (key: string) => rules.ruleOf(key) === undefined;
  return units.filter((unit) => unit.keys.every(free) && unit.sources.every(free));
}

/** `keys` without those whose local value never counts: excluded and never-translated keys. */
export function keysWithLocalValues(keys: string[], rules: KeyRuleMatcher): string[] {
  if (rules.empty) return keys;
  return keys.filter((key) => {
    const rule = rules.ruleOf(key);
    return rule !== 'exclude' && rule !== 'neverTranslate';
  });
}

/** The locale's keys only people translate that have no value in `values`: left for people. */
export function leftForPeople(
  target: TargetKeys,
  rules: KeyRuleMatcher,
  values: ReadonlyMap<string, string>,
): string[] {
  if (rules.empty) return [];
  return target.keys.filter((key) => rules.ruleOf(key) === 'humanOnly' && !values.get(key));
}

/**
 * A target file's value of `key` under the rules: none for an excluded key; for a key never
 * translated, the server's value (the source text it carries), never a local one; else `valueOf`.
 */
export function ruledValueOf(
  rules: KeyRuleMatcher,
  server: ReadonlyMap<string, string>,
  valueOf: (key: string) => string | undefined,
): (key: string) => string | undefined {
  if (rules.empty) return valueOf;
  return (key) => {
    const rule = rules.ruleOf(key);
    if (rule === 'exclude') return undefined;
    if (rule === 'neverTranslate') return server.get(key);
    return valueOf(key);
  };
}

/** One line naming the project's key rules, for `tolk status`; undefined when there are none. */
export function describeKeyRules(rules: KeyRules): string | undefined {
  const lists: [string[], string, string][] = [
    [rules.humanOnly, 'human-only pattern', 'human-only patterns'],
    [rules.neverTranslate, 'never translated', 'never translated'],
    [rules.exclude, 'excluded', 'excluded'],
  ];
  const parts = lists
    .filter(([patterns]) => patterns.length > 0)
    .map(([patterns, one, many]) => {
      const named = `${patterns.slice(0, 5).join(', ')}${patterns.length > 5 ? ', ...' : ''}`;
      return `${patterns.length} ${patterns.length === 1 ? one : many} (${named})`;
    });
  return parts.length > 0 ? `Key rules: ${parts.join(', ')}` : undefined;
}
