/**
 * Real runtimes read what Tolk produces (issue 14, DESIGN §11): for Polish, Russian, Arabic,
 * Japanese and Welsh, a translation is made of exactly the keys Tolk lists as missing for the
 * locale, uploaded and downloaded through the gateway, and then handed to the i18next library
 * itself and to intl-messageformat. Each number must render the form of its CLDR category and
 * never fall back to the source language.
 *
 * The expected category of each number comes from `Intl.PluralRules` here, independently of
 * Tolk's own code; each translated value names the category it was written for, so a wrong or
 * missing form shows as a wrong text.
 */
import i18next from 'i18next';
import { IntlMessageFormat } from 'intl-messageformat';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSystem, type System } from './system.js';

const COUNTS = [0, 1, 2, 3, 5, 11, 22, 101, 1.5];

const SOURCE = {
  cart: {
    item_one: '{{count}} item',
    item_other: '{{count}} items',
  },
  place_ordinal_one: '{{count}}st place',
  place_ordinal_two: '{{count}}nd place',
  place_ordinal_few: '{{count}}rd place',
  place_ordinal_other: '{{count}}th place',
  files: '{count, plural, one {# file} other {# files}}',
  title: 'Your cart',
};

/** What the translator writes for a form: the number and the category, so the test can tell. */
function form(locale: string, category: string): string {
  return `{{count}} [${locale} ${category}]`;
}

/** An ICU plural with every cardinal category of `locale`, or the bare argument when it has one. */
function icuPlural(locale: string): string {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  if (categories.length === 1) return `{count} [${locale} other]`;
  return `{count, plural, ${categories.map((c) => `${c} {[${locale} ${c}]}`).join(' ')}}`;
}

/** The translation of the target keys Tolk listed, as a translator would write them. */
function translate(locale: string, keys: readonly string[]): Record<string, unknown> {
  const cart: Record<string, string> = {};
  const document: Record<string, unknown> = { cart };
  for (const key of keys) {
    const cartForm = /^cart\.item_(\w+)$/.exec(key);
    const placeForm = /^place_ordinal_(\w+)$/.exec(key);
    if (cartForm) cart[`item_${cartForm[1]}`] = form(locale, cartForm[1]!);
    else if (placeForm) document[key] = form(locale, `ordinal ${placeForm[1]}`);
    else if (key === 'files') document.files = icuPlural(locale);
    else if (key === 'title') document.title = `[${locale}] Your cart`;
    else throw new Error(`Tolk listed a key the source does not explain: ${key}`);
  }
  return document;
}

describe('what Tolk writes, read by i18next and intl-messageformat', () => {
  let system: System;

  beforeAll(async () => {
    system = await startSystem({ sources: true });
  });
  afterAll(async () => {
    await system?.close();
  });

  it.each(['pl', 'ru', 'ar', 'ja', 'cy'])(
    'when %s is translated from the keys Tolk lists, then every count renders its own form and nothing falls back',
    async (locale) => {
      const user = await system.signUp();
      const created = await system.call('POST', '/v1/projects', user.token, {
        name: 'Shop',
        sourceLocale: 'en',
      });
      expect(created.status).toBe(201);
      const project = `/v1/projects/${created.body.projectId}`;
      expect((await system.call('POST', `${project}/locales`, user.token, { locale })).status).toBe(201);
      const pushed = await system.call('PUT', `${project}/source`, user.token, SOURCE);
      expect(pushed.status).toBe(200);
      const version = pushed.body.version as number;

      const detail = await vi.waitFor(
        async () => {
          const read = await system.call('GET', `${project}/locales/${locale}`, user.token);
          expect(read.body.sourceVersion).toBe(version);
          return read.body as { missing: string[]; keyCount: number };
        },
        { timeout: 10_000, interval: 20 },
      );
      const cardinal = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
      const ordinal = new Intl.PluralRules(locale, { type: 'ordinal' }).resolvedOptions().pluralCategories;
      expect(detail.keyCount).toBe(cardinal.length + ordinal.length + 2);

      const uploaded = await system.call(
        'PUT',
        `${project}/locales/${locale}/translations?sourceVersion=${version}`,
        user.token,
        translate(locale, detail.missing),
      );
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
      expect(uploaded.body).toMatchObject({ status: 'up_to_date', missingCount: 0, outdatedCount: 0 });

      const downloaded = await system.call('GET', `${project}/locales/${locale}/translations`, user.token);
      expect(downloaded.status).toBe(200);
      const content = JSON.parse(downloaded.body.content as string) as Record<string, unknown>;

      const missing: string[] = [];
      const i18n = i18next.createInstance();
      await i18n.init({
        lng: locale,
        fallbackLng: 'en',
        resources: { en: { translation: SOURCE }, [locale]: { translation: content } },
        saveMissing: true,
        missingKeyHandler: (_lngs, _ns, key) => missing.push(key),
        interpolation: { escapeValue: false },
      });
      const cardinalRules = new Intl.PluralRules(locale);
      const ordinalRules = new Intl.PluralRules(locale, { type: 'ordinal' });
      for (const count of COUNTS) {
        // i18next writes {{count}} with String(); its own `_zero` rule does not apply: no source has it.
        expect(i18n.t('cart.item', { count }), `cart.item for ${count}`).toBe(
          `${count} [${locale} ${cardinalRules.select(count)}]`,
        );
        if (Number.isInteger(count)) {
          expect(i18n.t('place', { count, ordinal: true }), `place for ${count}`).toBe(
            `${count} [${locale} ordinal ${ordinalRules.select(count)}]`,
          );
        }
        const files = new IntlMessageFormat(content.files as string, locale).format({ count }) as string;
        const category = cardinal.length === 1 ? 'other' : cardinalRules.select(count);
        expect(files.endsWith(`[${locale} ${category}]`), `files for ${count}: ${files}`).toBe(true);
      }
      expect(missing).toEqual([]);
    },
  );
});
