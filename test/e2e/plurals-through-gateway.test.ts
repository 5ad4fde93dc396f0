/**
 * i18next plural groups (DESIGN §11) through the one public entry: the real gateway in front of
 * identity-, project-, source- and locale-service, events through the outboxes and RabbitMQ. Each
 * target locale is counted, checked and downloaded over its own CLDR forms; a form the locale does
 * not use is ignored and named; every refused upload (a model's value breaking a rule) answers the
 * error envelope naming the keys and stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSystem, type System } from './system.js';

describe('i18next plural groups through the gateway', () => {
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

  const ENGLISH = {
    title: 'Cart',
    cart: { item_one: '{{count}} item', item_other: '{{count}} items' },
    place_ordinal_one: '{{count}}st',
    place_ordinal_two: '{{count}}nd',
    place_ordinal_few: '{{count}}rd',
    place_ordinal_other: '{{count}}th',
    greeting: 'Hello {name}',
  };
  const POLISH = {
    title: 'Koszyk',
    cart: {
      item_one: '{{count}} przedmiot',
      item_few: '{{count}} przedmioty',
      item_many: '{{count}} przedmiotów',
      item_other: '{{count}} przedmiotu',
    },
    place_ordinal_other: '{{count}}.',
    greeting: 'Cześć {name}',
  };
  const POLISH_KEYS = [
    'title',
    'cart.item_one',
    'cart.item_few',
    'cart.item_many',
    'cart.item_other',
    'place_ordinal_other',
    'greeting',
  ];

  /** `body` with `keys` claimed as the model's: held to every rule (DESIGN §15). */
  function byModel(body: Record<string, unknown>, keys: string[]) {
    return { ...body, '@@provenance': { ai: { model: 'openai:gpt-4o-mini', keys } } };
  }

  /** A project whose English source is at version 1 for each of `locales`. */
  async function projectWith(locales: string[], source: unknown = ENGLISH) {
    const user = await system.signUp();
    const created = await call('POST', '/v1/projects', user.token, {
      name: 'Plural keys',
      sourceLocale: 'en',
    });
    expect(created.status).toBe(201);
    const project = `/v1/projects/${created.body.projectId}`;
    for (const locale of locales) {
      expect((await call('POST', `${project}/locales`, user.token, { locale })).status).toBe(201);
    }
    expect((await call('PUT', `${project}/source`, user.token, source)).status).toBe(200);
    await vi.waitFor(async () => {
      const list = await call('GET', `${project}/locales`, user.token);
      const all = list.body.locales as Array<{ sourceVersion: number }>;
      expect(
        all.every((l) => l.sourceVersion === 1),
        'every target at version 1',
      ).toBe(true);
      return all;
    }, settled);
    return { token: user.token, project };
  }

  it("when Polish translates an English plural group, then its own four forms are accepted and English's two leave it behind", async () => {
    const { token, project } = await projectWith(['pl']);
    const fresh = await call('GET', `${project}/locales/pl`, token);
    expect(fresh.body).toMatchObject({ keyCount: 7, missingCount: 7, missing: POLISH_KEYS });

    // English's forms only: accepted (today's 400 "Keys not in source" is gone), but few and many are missing.
    const englishShaped = {
      ...POLISH,
      cart: { item_one: POLISH.cart.item_one, item_other: POLISH.cart.item_other },
    };
    const wrong = await call(
      'PUT',
      `${project}/locales/pl/translations?sourceVersion=1`,
      token,
      englishShaped,
    );
    expect(wrong.status).toBe(200);
    expect(wrong.body).toMatchObject({ status: 'behind', syncedVersion: 0, keyCount: 7, missingCount: 2 });
    const detail = await call('GET', `${project}/locales/pl`, token);
    expect(detail.body).toMatchObject({
      status: 'behind',
      missing: ['cart.item_few', 'cart.item_many'],
      outdated: [],
    });

    const right = await call('PUT', `${project}/locales/pl/translations?sourceVersion=1`, token, POLISH);
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({
      status: 'up_to_date',
      syncedVersion: 1,
      keyCount: 7,
      translatedCount: 7,
      missingCount: 0,
    });

    // The download writes Polish's forms at the group's place, in CLDR order.
    const pulled = await call('GET', `${project}/locales/pl/translations`, token);
    expect(pulled.status).toBe(200);
    const content = JSON.parse(pulled.body.content as string) as typeof POLISH;
    expect(Object.keys(content)).toEqual(['title', 'cart', 'place_ordinal_other', 'greeting']);
    expect(Object.keys(content.cart)).toEqual(['item_one', 'item_few', 'item_many', 'item_other']);
    expect(content).toStrictEqual(POLISH);

    // One source form changed: every Polish form of the group is outdated.
    const changed = await call('PUT', `${project}/source`, token, {
      ...ENGLISH,
      cart: { ...ENGLISH.cart, item_one: 'One item' },
    });
    expect(changed.body).toMatchObject({ version: 2 });
    const outdated = await vi.waitFor(async () => {
      const response = await call('GET', `${project}/locales/pl`, token);
      expect(response.body.sourceVersion, 'pl at version 2').toBe(2);
      return response.body;
    }, settled);
    expect(outdated).toMatchObject({
      status: 'behind',
      syncedVersion: 1,
      outdated: ['cart.item_one', 'cart.item_few', 'cart.item_many', 'cart.item_other'],
    });
  });

  it("when English's one form is plain text, then Russian's one may still say {{count}} (it covers 21, 31)", async () => {
    const english = { cart: { item_one: 'One item', item_other: '{{count}} items' } };
    const { token, project } = await projectWith(['ru'], english);
    const russian = {
      cart: {
        item_one: '{{count}} предмет',
        item_few: '{{count}} предмета',
        item_many: '{{count}} предметов',
        item_other: '{{count}} предмета',
      },
    };
    const uploaded = await call('PUT', `${project}/locales/ru/translations?sourceVersion=1`, token, russian);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body).toMatchObject({ status: 'up_to_date', keyCount: 4, missingCount: 0 });
  });

  it('when an ordinal group is translated into Welsh and French, then each has its own ordinal forms', async () => {
    const { token, project } = await projectWith(['cy', 'fr']);
    const welsh = await call('GET', `${project}/locales/cy`, token);
    expect((welsh.body.missing as string[]).filter((key) => key.startsWith('place'))).toEqual(
      ['zero', 'one', 'two', 'few', 'many', 'other'].map((c) => `place_ordinal_${c}`),
    );
    const french = await call('GET', `${project}/locales/fr`, token);
    expect(french.body.missing).toEqual([
      'title',
      'cart.item_one',
      'cart.item_many',
      'cart.item_other',
      'place_ordinal_one',
      'place_ordinal_other',
      'greeting',
    ]);
  });

  describe("a model's bad value: 400, the envelope naming the keys, and nothing stored", () => {
    /** Polish holds POLISH; `body` is refused with `message`; Polish still holds POLISH after. */
    async function refused(body: unknown, message: string | RegExp) {
      const { token, project } = await projectWith(['pl']);
      const stored = await call('PUT', `${project}/locales/pl/translations?sourceVersion=1`, token, POLISH);
      expect(stored.status).toBe(200);
      const before = await call('GET', `${project}/locales/pl`, token);

      const response = await call('PUT', `${project}/locales/pl/translations?sourceVersion=1`, token, body);
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['error']);
      expect(Object.keys(response.body.error)).toEqual(['code', 'message']);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      if (typeof message === 'string') expect(response.body.error.message).toBe(message);
      else expect(response.body.error.message).toMatch(message);

      const after = await call('GET', `${project}/locales/pl`, token);
      expect(after.body).toStrictEqual(before.body);
      const pulled = await call('GET', `${project}/locales/pl/translations`, token);
      expect(JSON.parse(pulled.body.content as string)).toStrictEqual(POLISH);
    }

    it('when forms are ones Polish does not use, then they are ignored and named, the rest stored', async () => {
      const { token, project } = await projectWith(['pl']);
      const response = await call('PUT', `${project}/locales/pl/translations?sourceVersion=1`, token, {
        ...POLISH,
        cart: { ...POLISH.cart, item_two: '{{count}} przedmioty' },
        place_ordinal_one: '{{count}}.',
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        ignored: ['cart.item_two', 'place_ordinal_one'],
        ignoredCount: 2,
        status: 'up_to_date',
        missingCount: 0,
      });
      const pulled = await call('GET', `${project}/locales/pl/translations`, token);
      expect(JSON.parse(pulled.body.content as string)).toStrictEqual(POLISH);
    });

    it('when an ICU plural lacks a Polish category, then the key and the categories are named', async () => {
      const { token, project } = await projectWith(['pl'], {
        ...ENGLISH,
        files: '{count, plural, one {# file} other {# files}}',
      });
      const response = await call(
        'PUT',
        `${project}/locales/pl/translations?sourceVersion=1`,
        token,
        byModel({ ...POLISH, files: '{count, plural, one {# plik} other {# pliki}}' }, ['files']),
      );
      expect(response.status).toBe(400);
      expect(response.body).toStrictEqual({
        error: {
          code: 'VALIDATION_ERROR',
          message:
            'ICU messages break the rules for pl in 1 key(s): "files": {count, plural} lacks few, many ' +
            '(pl: one, few, many, other); nothing was stored',
        },
      });
      expect((await call('GET', `${project}/locales/pl`, token)).body).toMatchObject({ translatedCount: 0 });
    });

    it('when a translation does not parse where its source does, then the key is named', async () => {
      await refused(
        byModel({ ...POLISH, greeting: 'Cześć {name' }, ['greeting']),
        /^ICU messages break the rules for pl in 1 key\(s\): "greeting": does not parse as an ICU message, as its source does \(.+\); nothing was stored$/,
      );
    });

    it('when a form drops the placeholder every source form has, then the form is named', async () => {
      await refused(
        byModel({ ...POLISH, cart: { ...POLISH.cart, item_many: 'wiele przedmiotów' } }, ['cart.item_many']),
        'Placeholders differ from the source in 1 key(s): "cart.item_many" ("cart.item_many": missing {{count}}); nothing was stored',
      );
    });

    it('when the locale code is not one, then the path names it', async () => {
      const { token, project } = await projectWith(['pl']);
      for (const [code, message] of [
        ['xx-', '"xx-" is not a BCP 47 locale code'],
        ['12', '"12" is not a BCP 47 locale code'],
        ['x'.repeat(40), 'is 40 characters long; a locale code has at most 35'],
      ] as const) {
        const response = await call(
          'PUT',
          `${project}/locales/${code}/translations?sourceVersion=1`,
          token,
          POLISH,
        );
        expect(response.status, code).toBe(400);
        expect(response.body.error.code).toBe('VALIDATION_ERROR');
        expect(response.body.error.message).toContain(`path.locale: `);
        expect(response.body.error.message).toContain(message);
      }
      const list = await call('GET', `${project}/locales`, token);
      expect(list.body.locales).toEqual([expect.objectContaining({ locale: 'pl', translatedCount: 0 })]);
    });
  });

  it('when the project turns plural keys off, then they are plain keys again without a new source version', async () => {
    const { token, project } = await projectWith(['pl']);
    const englishShaped = {
      ...POLISH,
      cart: { item_one: POLISH.cart.item_one, item_other: POLISH.cart.item_other },
    };
    const uploaded = await call(
      'PUT',
      `${project}/locales/pl/translations?sourceVersion=1`,
      token,
      englishShaped,
    );
    expect(uploaded.body).toMatchObject({ status: 'behind', keyCount: 7, missingCount: 2 });

    const patched = await call('PATCH', project, token, { settings: { i18nextPlurals: false } });
    expect(patched.status).toBe(200);
    expect(patched.body.settings).toMatchObject({ i18nextPlurals: false });
    const plain = await vi.waitFor(async () => {
      const response = await call('GET', `${project}/locales/pl`, token);
      expect(response.body.keyCount, 'pl counted over plain keys').toBe(8);
      return response.body;
    }, settled);
    // The source's keys as they are: the English ordinal forms are keys Polish must translate.
    expect(plain).toMatchObject({
      sourceVersion: 1,
      status: 'behind',
      missing: ['place_ordinal_one', 'place_ordinal_two', 'place_ordinal_few'],
    });
    const few = await call('PUT', `${project}/locales/pl/translations?sourceVersion=1`, token, POLISH);
    expect(few.status).toBe(200);
    expect(few.body).toMatchObject({ ignored: ['cart.item_few', 'cart.item_many'], ignoredCount: 2 });
  });
});
