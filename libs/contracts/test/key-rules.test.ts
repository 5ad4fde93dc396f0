import { describe, expect, it } from 'vitest';
import { keyRuleMatcher, keyRulePatternProblem } from '../src/key-rules.js';

const rulesWith = (list: 'humanOnly' | 'neverTranslate' | 'exclude', patterns: string[]) =>
  keyRuleMatcher({ humanOnly: [], neverTranslate: [], exclude: [], [list]: patterns });

describe('key rule patterns over key paths', () => {
  it.each([
    ['legal.*', 'legal.terms', true],
    ['legal.*', 'legal.terms.body', false],
    ['legal.*', 'legal', false],
    ['legal.*', 'legalese.terms', false],
    ['**.url', 'url', true],
    ['**.url', 'footer.url', true],
    ['**.url', 'footer.links.url', true],
    ['**.url', 'footer.urls', false],
    ['debug.**', 'debug', true],
    ['debug.**', 'debug.a.b.c', true],
    ['brand.name', 'brand.name', true],
    ['brand.name', 'brand.names', false],
    ['brand.name', 'Brand.name', false],
    ['brand.{name,slogan}', 'brand.slogan', true],
    ['cart.items_*', 'cart.items_few', true],
    ['item?', 'items', true],
    ['a?b', 'a.b', false],
    ['errors/404', 'errors/404', true],
    // `/` is a plain character of a key: `*` goes past it, `.` does not.
    ['errors/*', 'errors/404', true],
    ['*', 'a.b', false],
    ['*', 'top', true],
    ['a.*', 'a./b', true],
  ])('when the pattern is %s, then %s matches: %s', (pattern, key, matches) => {
    expect(rulesWith('exclude', [pattern]).ruleOf(key)).toBe(matches ? 'exclude' : undefined);
  });

  it('when several lists match a key, then exclude wins over neverTranslate over humanOnly', () => {
    const rules = keyRuleMatcher({ humanOnly: ['a.**'], neverTranslate: ['a.b.*'], exclude: ['a.b.c'] });
    expect(rules.ruleOf('a.b.c')).toBe('exclude');
    expect(rules.ruleOf('a.b.d')).toBe('neverTranslate');
    expect(rules.ruleOf('a.x')).toBe('humanOnly');
    expect(rules.ruleOf('b')).toBeUndefined();
  });

  it('when the rules are equal, then the compiled matcher is the same one; no rules are empty', () => {
    expect(keyRuleMatcher({ humanOnly: ['x'], neverTranslate: [], exclude: [] })).toBe(
      keyRuleMatcher({ humanOnly: ['x'], neverTranslate: [], exclude: [] }),
    );
    expect(keyRuleMatcher(undefined).empty).toBe(true);
    expect(keyRuleMatcher(undefined).ruleOf('anything')).toBeUndefined();
  });

  it.each([
    ['', 'must not be empty'],
    [' ', 'must not be empty'],
    ['a'.repeat(501), 'must be at most 500 characters (501 given)'],
    ['!a', '"!a" is not a valid glob pattern: negation (a leading "!") is not supported'],
    [
      'a.[',
      '"a.[" is not a valid glob pattern: Missing closing: "]" - use "\\\\]" to match literal characters',
    ],
  ])('when the pattern is %j, then the problem is named', (pattern, problem) => {
    expect(keyRulePatternProblem(pattern)).toBe(problem);
  });

  it('when a stored pattern is not valid (an older rule), then it matches nothing and the rest still apply', () => {
    const rules = keyRuleMatcher({ humanOnly: [], neverTranslate: [], exclude: ['a.[', 'b.*'] });
    expect(rules.ruleOf('a.[')).toBeUndefined();
    expect(rules.ruleOf('b.c')).toBe('exclude');
  });
});
