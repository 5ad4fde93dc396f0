/**
 * The core flow of the product through the one public entry, as the CLI drives it: the real
 * gateway in front of identity-, project-, source- and locale-service, events through the outboxes
 * and RabbitMQ. Create a project, add locales, upload the source, translate, change the source.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { request } from '@tolk/testing';
import { startSystem, type System } from './system.js';

describe('source and locales through the gateway', () => {
  let system: System;

  beforeAll(async () => {
    system = await startSystem({ sources: true });
  });
  afterAll(async () => {
    await system?.close();
  });

  const call: System['call'] = (...args) => system.call(...args);

  /** How long the bus may take to carry an event between the services. */
  const settled = { timeout: 10_000, interval: 20 };

  it('when a project is created, translated and its source changed, then exactly the changed keys are outdated', async () => {
    const user = await system.signUp();
    const created = await call('POST', '/v1/projects', user.token, { name: 'Shop', sourceLocale: 'en' });
    expect(created.status).toBe(201);
    const project = `/v1/projects/${created.body.projectId}`;

    for (const locale of ['de', 'fr']) {
      expect((await call('POST', `${project}/locales`, user.token, { locale })).status).toBe(201);
    }

    const source = { cart: { title: 'Your cart', empty: 'Your cart is empty' }, checkout: 'Pay {amount}' };
    const first = await call('PUT', `${project}/source`, user.token, source);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ version: 1, keyCount: 3, needsTranslation: true });

    const behind = await vi.waitFor(async () => {
      const list = await call('GET', `${project}/locales`, user.token);
      const locales = list.body.locales as Array<{ status: string; sourceVersion: number }>;
      expect(
        locales.every((l) => l.sourceVersion === 1),
        'locales behind at version 1',
      ).toBe(true);
      return locales;
    }, settled);
    expect(behind.map((l) => l.status)).toEqual(['behind', 'behind']);

    const german = {
      cart: { title: 'Dein Warenkorb', empty: 'Dein Warenkorb ist leer' },
      checkout: 'Zahle {amount}',
    };
    const french = {
      cart: { title: 'Votre panier', empty: 'Votre panier est vide' },
      checkout: 'Payer {amount}',
    };
    for (const [locale, body] of [
      ['de', german],
      ['fr', french],
    ] as const) {
      const uploaded = await call(
        'PUT',
        `${project}/locales/${locale}/translations?sourceVersion=1`,
        user.token,
        body,
      );
      expect(uploaded.status).toBe(200);
      expect(uploaded.body).toMatchObject({
        locale,
        status: 'up_to_date',
        syncedVersion: 1,
        missingCount: 0,
      });
    }
    // Everything translated: the baseline reaches source-service, nothing is pending.
    await vi.waitFor(async () => {
      const current = await call('GET', `${project}/source`, user.token);
      expect(current.body.pendingDiff.added.length, 'pendingDiff empty').toBe(0);
      return current;
    }, settled);
    expect((await call('PUT', `${project}/source`, user.token, source)).body).toMatchObject({
      version: 1,
      needsTranslation: false,
    });

    const changed = await call('PUT', `${project}/source`, user.token, {
      ...source,
      cart: { ...source.cart, empty: 'Nothing in your cart yet' },
    });
    expect(changed.body).toMatchObject({
      version: 2,
      diff: { added: [], modified: ['cart.empty'], deleted: [] },
    });

    const german2 = await vi.waitFor(async () => {
      const detail = await call('GET', `${project}/locales/de`, user.token);
      expect(detail.body.sourceVersion, 'de at version 2').toBe(2);
      return detail.body;
    }, settled);
    expect(german2).toMatchObject({
      status: 'behind',
      syncedVersion: 1,
      missingCount: 0,
      outdatedCount: 1,
      missing: [],
      outdated: ['cart.empty'],
    });

    const pulled = await call('GET', `${project}/locales/fr/translations`, user.token);
    expect(JSON.parse(pulled.body.content)).toEqual(french);
  });

  it('when target locales are BCP 47 codes, then they are canonical everywhere, and the source locale says why it may not be one', async () => {
    const user = await system.signUp();
    const refused = await call('POST', '/v1/projects', user.token, { name: 'Hant', sourceLocale: 'zh-Hant' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    expect(refused.body.error.message).toContain('body.sourceLocale: "zh-Hant" cannot be a source locale');

    const created = await call('POST', '/v1/projects', user.token, { name: 'Codes', sourceLocale: 'EN' });
    const project = `/v1/projects/${created.body.projectId}`;
    for (const [code, canonical] of [
      ['zh-hant', 'zh-Hant'],
      ['es-419', 'es-419'],
      ['SR-latn', 'sr-Latn'],
    ]) {
      const added = await call('POST', `${project}/locales`, user.token, { locale: code });
      expect(added.status).toBe(201);
      expect(added.body.locale).toBe(canonical);
      const found = await call('GET', `${project}/locales/${canonical!.toLowerCase()}`, user.token);
      expect(found.body.locale).toBe(canonical);
    }
    for (const code of ['xx-', '12', 'x'.repeat(40)]) {
      const bad = await call('POST', `${project}/locales`, user.token, { locale: code });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining(`body.locale: ${JSON.stringify(code)}`),
      });
    }
  });

  it('when ICU plurals are translated, then each target keeps its own categories, refusals store nothing, and every accepted one formats', async () => {
    const user = await system.signUp();
    const created = await call('POST', '/v1/projects', user.token, { name: 'Plurals', sourceLocale: 'en' });
    const project = `/v1/projects/${created.body.projectId}`;
    const targets = ['pl', 'ar', 'ja', 'pt-PT'];
    for (const locale of targets) {
      expect((await call('POST', `${project}/locales`, user.token, { locale })).status).toBe(201);
    }
    const source = {
      files: '{count, plural, one {# file} other {# files}}',
      place: '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}',
    };
    expect((await call('PUT', `${project}/source`, user.token, source)).status).toBe(200);
    await vi.waitFor(async () => {
      const list = await call('GET', `${project}/locales`, user.token);
      const locales = list.body.locales as Array<{ sourceVersion: number }>;
      expect(
        locales.every((l) => l.sourceVersion === 1),
        'every target at version 1',
      ).toBe(true);
      return locales;
    }, settled);

    const englishShaped = await call(
      'PUT',
      `${project}/locales/pl/translations?sourceVersion=1`,
      user.token,
      {
        files: '{count, plural, one {# plik} other {# pliki}}',
        '@@provenance': { ai: { model: 'openai:gpt-4o-mini', keys: ['files'] } },
      },
    );
    expect(englishShaped.status).toBe(400);
    expect(englishShaped.body.error).toEqual({
      code: 'VALIDATION_ERROR',
      message:
        'ICU messages break the rules for pl in 1 key(s): "files": {count, plural} lacks few, many ' +
        '(pl: one, few, many, other); nothing was stored',
    });
    expect((await call('GET', `${project}/locales/pl`, user.token)).body.translatedCount).toBe(0);

    const good: Record<string, Record<string, string>> = {
      pl: {
        files: '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}',
        place: '{n}.',
      },
      ar: {
        files:
          '{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}',
        place: 'الترتيب {n}',
      },
      ja: { files: '{count}個のファイル', place: '{n}番目' },
      'pt-PT': {
        files: '{count, plural, one {# ficheiro} many {# de ficheiros} other {# ficheiros}}',
        place: '{n, selectordinal, other {#.º}}',
      },
    };
    for (const locale of targets) {
      const uploaded = await call(
        'PUT',
        `${project}/locales/${locale}/translations?sourceVersion=1`,
        user.token,
        good[locale],
      );
      expect(uploaded.status, locale).toBe(200);
      expect(uploaded.body.status).toBe('up_to_date');
      const pulled = await call('GET', `${project}/locales/${locale}/translations`, user.token);
      const content = JSON.parse(pulled.body.content) as Record<string, string>;
      expect(content).toEqual(good[locale]);
      for (const [key, message] of Object.entries(content)) {
        const format = new IntlMessageFormat(message, locale);
        for (const number of [0, 1, 2, 3, 5, 11, 22, 101, 1.5]) {
          const text = format.format({ count: number, n: number });
          // Formatted whole: no syntax left over, no runtime fallback to the message's source.
          expect(text, `${locale} ${key} ${number}`).toMatch(/^[^{}#]+$/);
        }
      }
    }
    // Arabic's forms as CLDR reads them: 0 zero, 2 two, 3 few, 11 many, 101 other.
    const arabic = new IntlMessageFormat(good['ar']!.files!, 'ar');
    expect([0, 2, 3, 11, 101].map((count) => arabic.format({ count }))).toEqual([
      'لا ملفات',
      'ملفان',
      '3 ملفات',
      '11 ملفًا',
      '101 ملف',
    ]);
  });

  it('when two members upload a locale at once with the ETag of the same download, then one is stored and the other is 412 with none of its values', async () => {
    const owner = await system.signUp();
    const member = await system.signUp();
    const created = await call('POST', '/v1/projects', owner.token, { name: 'Shop', sourceLocale: 'en' });
    const project = `/v1/projects/${created.body.projectId}`;
    expect((await call('POST', `${project}/members`, owner.token, { email: member.email })).status).toBe(201);
    expect((await call('POST', `${project}/locales`, owner.token, { locale: 'de' })).status).toBe(201);
    expect(
      (await call('PUT', `${project}/source`, owner.token, { title: 'Shop', pay: 'Pay', bye: 'Bye' })).status,
    ).toBe(200);
    await vi.waitFor(async () => {
      const de = await call('GET', `${project}/locales/de`, owner.token);
      expect(de.body.sourceVersion, 'de at source version 1').toBe(1);
    }, settled);

    const translations = `${project}/locales/de/translations`;
    const downloaded = await call('GET', translations, owner.token);
    const etag = downloaded.headers.get('etag');
    expect(etag).toMatch(/^"\d+"$/);
    // Each merged its own keys with the same download: both uploads are made against it.
    const uploads = [
      { token: owner.token, body: { title: 'Laden', pay: 'Zahlen' } },
      { token: member.token, body: { bye: 'Tschüss' } },
    ];
    const answers = await Promise.all(
      uploads.map(({ token, body }) =>
        request(`${system.base}${translations}?sourceVersion=1`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'if-match': etag! },
          body,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
    const winner = answers.findIndex((answer) => answer.status === 200);
    const loser = answers[1 - winner]!;
    expect(loser.body.error.code).toBe('PRECONDITION_FAILED');
    expect(loser.body.error.message).toContain('nothing was stored');

    const after = await call('GET', translations, owner.token);
    expect(JSON.parse(after.body.content)).toEqual(uploads[winner]!.body);
    expect(after.headers.get('etag')).toBe(answers[winner]!.headers.get('etag'));
    expect(after.headers.get('etag')).not.toBe(etag);

    // The one refused, still holding the old ETag, is refused again: it must download and merge.
    const stale = await request(`${system.base}${translations}?sourceVersion=1`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${uploads[1 - winner]!.token}`, 'if-match': etag! },
      body: uploads[1 - winner]!.body,
    });
    expect(stale.status).toBe(412);
    expect(JSON.parse((await call('GET', translations, owner.token)).body.content)).toEqual(
      uploads[winner]!.body,
    );
  });
});
