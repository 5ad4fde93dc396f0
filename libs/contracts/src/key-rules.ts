/**
 * Key rules (DESIGN §13): glob patterns over a project's key paths naming the keys only people
 * translate (`humanOnly`), the keys never translated, whose targets carry the source text
 * (`neverTranslate`), and the keys left out of targets (`exclude`).
 *
 * Patterns are globs with `.` as the segment separator of a key path: `*` matches within one
 * segment (`legal.*` is `legal.terms`, not `legal.terms.body`), `**` as a whole segment any
 * number of segments, none included (`**.url` is `url` and `footer.links.url`), `?` one
 * character other than `.`; `[a-z]` one character of a class, `[^a-z]` or `[!a-z]` one other
 * than those and `.`, `[[:digit:]]` and the other POSIX classes; `{a,b}` and `@(a|b)` one of the
 * alternatives, `*(a|b)` any number of them, `+(a|b)` one or more, `?(a|b)` at most one; `\`
 * escapes. A pattern matches the whole key, case-sensitively. A key several lists match follows
 * the strongest: exclude, then neverTranslate, then humanOnly.
 *
 * Rules run on automata that never backtrack (key-rule-automaton.ts): a key costs at most its
 * length times the rules' `cost`, one step per character and list for the rules people write.
 * A rule set may cost at most MAX_KEY_RULE_COST a character, so that one key is always quick,
 * and its cost times the characters of a source's keys stays within a budget (keyRulesWorkProblem).
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { compileSteps, GlobSyntaxError, parseGlob } from './key-rule-automaton.js';

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
    parseGlob(pattern);
  } catch (error) {
    if (!(error instanceof GlobSyntaxError)) throw error;
    return `${shown} is not a valid glob pattern: ${error.message}`;
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
      'A glob over key paths: `.` separates segments, `*` matches within one, `**` any number of them, `?` one ' +
      'character other than `.`, `[a-z]` a class (`[^a-z]` or `[!a-z]` any other but `.`), `{a,b}` and `@(a|b)` ' +
      'alternatives, `*(…)` `+(…)` `?(…)` repeats, `\\` escapes; the whole key, case-sensitive. A negated group ' +
      '`!(…)` is refused',
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
      'neverTranslate, then humanOnly. Matching never backtracks; rules costing more than 2,000 steps per key ' +
      "character are refused, and so are rules whose cost times the characters of the project's source keys " +
      'passes the server budget (KEY_RULES_BUDGET, 100,000,000 by default): 400 VALIDATION_ERROR naming it',
  });

/** What a key's rules make of it; undefined: translated as usual. */
export type KeyRule = KeyRuleList;

/** Steps a rule set may cost per key character: a key of 1,000 characters takes a few ms at most. */
export const MAX_KEY_RULE_COST = 2_000;

/**
 * The default budget of a project's rules over its source's keys (cost × key characters): about
 * a second of one core at most, where real rule sets (tens of patterns, one step a character and
 * list) over 200,000 keys take a few percent of it.
 */
export const DEFAULT_KEY_RULES_BUDGET = 100_000_000;

export type KeyRuleMatcher = {
  /** Whether no key has a rule (every list empty). */
  readonly empty: boolean;
  /** A text naming the rule set, equal for equal rules (a cache key). */
  readonly id: string;
  /** Steps one key character costs at most (0 without rules). */
  readonly cost: number;
  ruleOf(key: string): KeyRule | undefined;
};

const RANKED: readonly KeyRule[] = ['humanOnly', 'neverTranslate', 'exclude'];

type Compiled = { matcher: KeyRuleMatcher; bytes: number };

/** The matcher of `lists`, compiled step by step (see compileSteps); patterns that do not parse match nothing. */
function* matcherSteps(lists: Readonly<KeyRules>, id: string): Generator<void, Compiled> {
  const ranked: { rank: number; patterns: string[] }[] = [];
  for (const [index, list] of RANKED.entries()) {
    const patterns: string[] = [];
    for (const pattern of new Set(lists[list] ?? [])) {
      if (keyRulePatternProblem(pattern) === undefined) patterns.push(pattern);
      yield;
    }
    ranked.push({ rank: index + 1, patterns });
  }
  const automaton = yield* compileSteps(ranked);
  const empty = automaton.cost === 0;
  const matcher: KeyRuleMatcher = {
    empty,
    id,
    cost: automaton.cost,
    ruleOf: (key) => (empty ? undefined : RANKED[automaton.rankOf(key) - 1]),
  };
  return { matcher, bytes: automaton.bytes };
}

/** Compiled rule sets, up to 128 MiB of automata. */
const compiled = new LRUCache<string, Compiled>({
  maxSize: 128 * 1024 * 1024,
  sizeCalculation: (entry) => Math.max(1, entry.bytes),
});
const compiling = new Map<string, Promise<KeyRuleMatcher>>();

const idOf = (lists: Readonly<KeyRules>) => JSON.stringify(KEY_RULE_LISTS.map((list) => lists[list] ?? []));

/**
 * The rules' matcher, compiled at once (kept for the rule sets used last). Rules are trusted to
 * be valid (checked when stored); a pattern that does not parse matches nothing.
 */
export function keyRuleMatcher(rules: Readonly<KeyRules> | undefined): KeyRuleMatcher {
  const lists = rules ?? NO_KEY_RULES;
  const id = idOf(lists);
  const known = compiled.get(id);
  if (known) return known.matcher;
  const steps = matcherSteps(lists, id);
  let step = steps.next();
  while (!step.done) step = steps.next();
  compiled.set(id, step.value);
  return step.value.matcher;
}

/**
 * keyRuleMatcher, compiled in slices of SLICE_MS between which the event loop serves others (a
 * rule set of 600 long patterns takes a few hundred milliseconds); calls for the same rules share
 * one compilation.
 */
export function compileKeyRules(rules: Readonly<KeyRules> | undefined): Promise<KeyRuleMatcher> {
  const lists = rules ?? NO_KEY_RULES;
  const id = idOf(lists);
  const known = compiled.get(id);
  if (known) return Promise.resolve(known.matcher);
  let running = compiling.get(id);
  if (!running) {
    running = inTimeSlices(matcherSteps(lists, id)).then(
      (entry) => {
        compiled.set(id, entry);
        compiling.delete(id);
        return entry.matcher;
      },
      (error: unknown) => {
        compiling.delete(id);
        throw error;
      },
    );
    compiling.set(id, running);
  }
  return running;
}

/**
 * How long one slice of work holds the event loop at most, give or take one step (a step is well
 * under a millisecond). Short, because another user's request passes through the event loop many
 * times (the gateway, the service, each database answer) and may wait for a slice each time.
 */
const SLICE_MS = 2;

/** The next slice of each run of inTimeSlices with work left, in the order they take turns. */
const waiting: (() => void)[] = [];
let scheduled = false;

/** One slice, in a turn of the event loop of its own; the next, if any, in a later turn. */
function runNextSlice() {
  waiting.shift()?.();
  scheduled = waiting.length > 0;
  // An immediate queued from inside one runs in the next turn, after the I/O that waits.
  if (scheduled) setImmediate(runNextSlice);
}

/**
 * Runs `steps` to their end in slices of SLICE_MS, each in a turn of the event loop of its own:
 * the runs with work left take turns, one slice a turn between them all, so that others are
 * served between any two slices however many rule sets are being compiled or worked out at once
 * (each run yielding with setImmediate on its own would hold a turn for a slice of every run:
 * every immediate queued before a turn runs in it).
 */
export function inTimeSlices<T>(steps: Iterator<unknown, T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const slice = () => {
      const started = performance.now();
      try {
        for (;;) {
          const step = steps.next();
          if (step.done) {
            resolve(step.value);
            return;
          }
          if (performance.now() - started >= SLICE_MS) break;
        }
      } catch (error) {
        reject(error as Error);
        return;
      }
      waiting.push(slice);
    };
    waiting.push(slice);
    if (!scheduled) {
      scheduled = true;
      setImmediate(runNextSlice);
    }
  });
}

/** The characters of `keys`, what a rule set's work over them is counted in. */
export function keyCharacters(keys: readonly string[]): number {
  let total = 0;
  for (const key of keys) total += key.length;
  return total;
}

/** Why a rule set costs too much for any key (a sentence), or undefined. */
export function keyRulesCostProblem(matcher: KeyRuleMatcher): string | undefined {
  if (matcher.cost <= MAX_KEY_RULE_COST) return undefined;
  return (
    `these key rules take ${matcher.cost} steps for each character of a key, more than the ` +
    `${MAX_KEY_RULE_COST} allowed: use fewer or simpler patterns (a pattern with many "*" or "?" ` +
    'after a "**" has many ways to match at once)'
  );
}

/**
 * Why a rule set over keys of `characters` characters in all passes `budget` steps (a
 * sentence), or undefined.
 */
export function keyRulesWorkProblem(
  matcher: KeyRuleMatcher,
  characters: number,
  budget: number,
): string | undefined {
  const work = matcher.cost * characters;
  if (work <= budget) return undefined;
  return (
    `checking the source's keys (${characters} characters) against the key rules would take up to ` +
    `${work} steps (${matcher.cost} a character), over the budget of ${budget}: use fewer or ` +
    'simpler patterns, or fewer keys'
  );
}
