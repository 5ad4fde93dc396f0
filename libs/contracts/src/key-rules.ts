/**
 * Key rules (DESIGN §13): glob patterns over a project's key paths naming the keys only people
 * translate (`humanOnly`), the keys never translated, whose targets carry the source text
 * (`neverTranslate`), and the keys left out of targets (`exclude`).
 *
 * Patterns are picomatch globs with `.` as the segment separator of a key path: `*` matches
 * within one segment (`legal.*` is `legal.terms`, not `legal.terms.body`), `**` as a whole
 * segment any number of segments, none included (`**.url` is `url` and `footer.links.url`),
 * `?` one character other than `.`; `[a-z]`, `{a,b}` and `@(a|b)` as picomatch reads them, and
 * `\` escapes. A pattern matches the whole key, case-sensitively. A key several lists match
 * follows the strongest: exclude, then neverTranslate, then humanOnly.
 */
import { LRUCache } from 'lru-cache';
import picomatch from 'picomatch/posix.js';
import { z } from 'zod';

export const KEY_RULE_LISTS = ['humanOnly', 'neverTranslate', 'exclude'] as const;
export type KeyRuleList = (typeof KEY_RULE_LISTS)[number];
export type KeyRules = Record<KeyRuleList, string[]>;

export const MAX_KEY_RULE_PATTERNS = 200;
export const MAX_KEY_RULE_PATTERN_LENGTH = 500;

export const NO_KEY_RULES: Readonly<KeyRules> = Object.freeze({
  humanOnly: [],
  neverTranslate: [],
  exclude: [],
});

// picomatch separates segments with `/`: a key's `.` and `/` trade places on the way in, so
// that `.` separates and a `/` in a key is a plain character (matched by `/` in a pattern).
function swapSeparators(value: string): string {
  return value.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'));
}

// `dot`: a segment starting with `.` (a key `a./b`) is no hidden file. `strictBrackets`: an
// unbalanced bracket is an error, not a literal.
const OPTIONS = { dot: true, strictBrackets: true } as const;

/** What is wrong with a pattern (a sentence naming it), or undefined when it is a valid glob. */
export function keyRulePatternProblem(pattern: string): string | undefined {
  if (pattern.trim() === '') return 'must not be empty';
  if (pattern.length > MAX_KEY_RULE_PATTERN_LENGTH) {
    return `must be at most ${MAX_KEY_RULE_PATTERN_LENGTH} characters (${pattern.length} given)`;
  }
  const shown = JSON.stringify(pattern);
  if (pattern.startsWith('!')) {
    return `${shown} is not a valid glob pattern: negation (a leading "!") is not supported`;
  }
  try {
    // picomatch answers a pattern it cannot turn into a regular expression with one matching nothing.
    if (picomatch.makeRe(swapSeparators(pattern), OPTIONS).source === '$^') {
      return `${shown} is not a valid glob pattern`;
    }
  } catch (error) {
    return `${shown} is not a valid glob pattern: ${(error as Error).message}`;
  }
  return undefined;
}

const pattern = z
  .string({ error: 'must be a string (a glob pattern)' })
  .superRefine((value, ctx) => {
    const problem = keyRulePatternProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    description:
      'A glob over key paths: `.` separates segments, `*` matches within one, `**` any number of them; the whole key, case-sensitive',
    minLength: 1,
    maxLength: MAX_KEY_RULE_PATTERN_LENGTH,
  });

const patternList = z
  .array(pattern, { error: 'must be an array of glob patterns' })
  .max(MAX_KEY_RULE_PATTERNS, {
    error: (issue) =>
      `must hold at most ${MAX_KEY_RULE_PATTERNS} patterns (${(issue.input as unknown[]).length} given)`,
  });

/** `settings.keyRules` in a request: each list given replaces that list; one left out stays. */
export const keyRulesInputSchema = z
  .strictObject(
    {
      humanOnly: patternList.optional(),
      neverTranslate: patternList.optional(),
      exclude: patternList.optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `has no list ${issue.keys.join(', ')}: the lists are ${KEY_RULE_LISTS.join(', ')}`
          : 'must be a JSON object with the lists humanOnly, neverTranslate, exclude',
    },
  )
  .meta({
    description:
      'Key rules (glob patterns over keys): `humanOnly` keys only people translate, `neverTranslate` keys whose ' +
      'targets carry the source text, `exclude` keys left out of targets. Each list given replaces that list; ' +
      'one left out stays. At most 200 patterns per list. A key several lists match follows exclude, then ' +
      'neverTranslate, then humanOnly',
  });

/** What a key's rules make of it; undefined: translated as usual. */
export type KeyRule = KeyRuleList;

export type KeyRuleMatcher = {
  /** Whether no key has a rule (every list empty). */
  readonly empty: boolean;
  /** A text naming the rule set, equal for equal rules (a cache key). */
  readonly id: string;
  ruleOf(key: string): KeyRule | undefined;
};

function listRegex(patterns: readonly string[]): RegExp | undefined {
  const sources = patterns.flatMap((p) =>
    keyRulePatternProblem(p) ? [] : [picomatch.makeRe(swapSeparators(p), OPTIONS).source],
  );
  return sources.length > 0 ? new RegExp(sources.map((source) => `(?:${source})`).join('|')) : undefined;
}

const compiled = new LRUCache<string, KeyRuleMatcher>({ max: 100 });

/**
 * The rules as one regular expression per list, compiled once per rule set (kept for the last
 * 100 sets used). Rules are trusted to be valid (checked when stored); a pattern picomatch
 * cannot read matches nothing.
 */
export function keyRuleMatcher(rules: Readonly<KeyRules> | undefined): KeyRuleMatcher {
  const lists = rules ?? NO_KEY_RULES;
  const id = JSON.stringify(KEY_RULE_LISTS.map((list) => lists[list] ?? []));
  const known = compiled.get(id);
  if (known) return known;
  const exclude = listRegex(lists.exclude ?? []);
  const neverTranslate = listRegex(lists.neverTranslate ?? []);
  const humanOnly = listRegex(lists.humanOnly ?? []);
  const matcher: KeyRuleMatcher = {
    empty: !exclude && !neverTranslate && !humanOnly,
    id,
    ruleOf(key) {
      if (matcher.empty) return undefined;
      const path = swapSeparators(key);
      if (exclude?.test(path)) return 'exclude';
      if (neverTranslate?.test(path)) return 'neverTranslate';
      if (humanOnly?.test(path)) return 'humanOnly';
      return undefined;
    },
  };
  compiled.set(id, matcher);
  return matcher;
}
