import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SOURCE_LOCALE_PATTERN,
  TARGET_LOCALE_PATTERN,
  addLocaleBodySchema,
  createProjectRequestSchema,
  parseTargetLocale,
} from '@tolk/contracts';

function intlAccepts(code: string): boolean {
  try {
    Intl.getCanonicalLocales(code);
    return true;
  } catch {
    return false;
  }
}

describe('parseTargetLocale', () => {
  it.each([
    ['zh-hant', 'zh-Hant'],
    ['EN-gb', 'en-GB'],
    ['es-419', 'es-419'],
    ['sr-latn', 'sr-Latn'],
    ['pt-br', 'pt-BR'],
    ['de', 'de'],
    ['zh-Hant-TW', 'zh-Hant-TW'],
    ['de-DE-u-co-phonebk', 'de-DE-u-co-phonebk'],
    ['EN-latn-us-x-Foo', 'en-Latn-US-x-foo'],
    // Intl's canonical form replaces deprecated codes.
    ['iw', 'he'],
  ])('when the code is %s, then it is the target locale %s', (code, canonical) => {
    expect(parseTargetLocale(code)).toEqual({ ok: true, locale: canonical });
  });

  it.each([
    ['xx-', '"xx-" is not a BCP 47 locale code such as de, pt-BR, zh-Hant or es-419'],
    ['12', '"12" is not a BCP 47 locale code'],
    ['english', '"english" is not a BCP 47 locale code'],
    ['de-1996-1996', '"de-1996-1996" is not a BCP 47 locale code'],
    ['', '"" is not a BCP 47 locale code'],
    ['de DE', '"de DE" is not'],
    [
      'pt_BR',
      '"pt_BR" is not a BCP 47 locale code such as de, pt-BR, zh-Hant or es-419 (BCP 47 separates with "-": pt-BR)',
    ],
    ['en-US-x-' + 'a'.repeat(32), 'is 40 characters long; a locale code has at most 35'],
  ])('when the code is %j, then it is refused, named, with the reason', (code, problem) => {
    const parsed = parseTargetLocale(code);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.problem).toContain(problem);
  });

  it('when any string is tried, then the published pattern holds every accepted code, and Intl has the last word', () => {
    const subtag = fc.constantFrom(
      'de',
      'zh',
      'hant',
      'latn',
      'br',
      '419',
      '1996',
      'u',
      'x',
      'co',
      'a1b2c',
      'ab',
      't',
      'q',
    );
    const code = fc.oneof(
      fc.array(subtag, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('-')),
      fc.string({ unit: fc.constantFrom(...'abzAZ019-_x'), maxLength: 16 }),
    );
    fc.assert(
      fc.property(code, (candidate) => {
        const parsed = parseTargetLocale(candidate);
        if (!parsed.ok) return;
        expect(TARGET_LOCALE_PATTERN.test(candidate)).toBe(true);
        expect(TARGET_LOCALE_PATTERN.test(parsed.locale)).toBe(true);
        expect(intlAccepts(candidate)).toBe(true);
        expect(parsed.locale.length).toBeLessThanOrEqual(35);
      }),
      { numRuns: 5000 },
    );
  });

  it('when Intl accepts a code with a 2–3 letter language, then the pattern does too', () => {
    const code = fc
      .tuple(
        fc.stringMatching(/^[a-z]{2,3}$/),
        fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { maxLength: 4 }),
      )
      .map(([language, rest]) => [language, ...rest].join('-'));
    fc.assert(
      fc.property(code, (candidate) => {
        if (intlAccepts(candidate)) expect(TARGET_LOCALE_PATTERN.test(candidate), candidate).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('locale fields', () => {
  it('when a target locale is added in any spelling, then the body holds its canonical form', () => {
    expect(addLocaleBodySchema.parse({ locale: 'zh-hant' })).toEqual({ locale: 'zh-Hant' });
    const refused = addLocaleBodySchema.safeParse({ locale: 'x'.repeat(40) });
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual([
      `"${'x'.repeat(40)}" is 40 characters long; a locale code has at most 35`,
    ]);
  });

  it('when a project’s source locale has a script or a numeric region, then the message says why', () => {
    expect(SOURCE_LOCALE_PATTERN.test('zh-Hant')).toBe(false);
    const refused = createProjectRequestSchema.safeParse({ name: 'App', sourceLocale: 'zh-Hant' });
    const message = refused.error?.issues[0]?.message ?? '';
    expect(message).toContain('"zh-Hant" cannot be a source locale');
    expect(message).toContain('^[a-z]{2,3}(-[A-Z]{2,3})?$');
    expect(message).toContain('can be target locales');
    expect(createProjectRequestSchema.parse({ name: 'App', sourceLocale: 'PT-br' }).sourceLocale).toBe(
      'pt-BR',
    );
  });
});
