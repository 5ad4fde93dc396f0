/**
 * DESIGN §11 on locale-service: i18next plural groups. Each target locale is counted, checked and
 * downloaded over its own CLDR forms of a group; any change to a source form outdates the group.
 * The expected forms are written out here, from CLDR's rules as Node 20 ships them, not worked
 * out with the code under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimedByModel, expectError, startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

type Headers = Record<string, string>;

/** An English source with a cardinal group (nested) and an ordinal one. */
const SOURCE = {
  title: 'Cart',
  cart: { item_one: '{{count}} item', item_other: '{{count}} items' },
  place_ordinal_one: '{{count}}st',
  place_ordinal_two: '{{count}}nd',
  place_ordinal_few: '{{count}}rd',
  place_ordinal_other: '{{count}}th',
};

type Case = {
  locale: string;
  /** The locale's cardinal forms of `cart.item`, in CLDR order. */
  cardinal: string[];
  /** The locale's ordinal forms of `place`, in CLDR order. */
  ordinal: string[];
  /** A form of a source group the locale does not use, with the message's categories; none for cy. */
  unused?: { key: string; label: string };
};

const CASES: Case[] = [
  {
    locale: 'pl',
    cardinal: ['one', 'few', 'many', 'other'],
    ordinal: ['other'],
    unused: { key: 'cart.item_two', label: 'pl: one, few, many, other' },
  },
  {
    locale: 'ru',
    cardinal: ['one', 'few', 'many', 'other'],
    ordinal: ['other'],
    unused: { key: 'place_ordinal_one', label: 'ru ordinals: other' },
  },
  {
    locale: 'uk',
    cardinal: ['one', 'few', 'many', 'other'],
    ordinal: ['few', 'other'],
    unused: { key: 'place_ordinal_two', label: 'uk ordinals: few, other' },
  },
  {
    locale: 'cs',
    cardinal: ['one', 'few', 'many', 'other'],
    ordinal: ['other'],
    unused: { key: 'cart.item_zero', label: 'cs: one, few, many, other' },
  },
  {
    locale: 'ar',
    cardinal: ['zero', 'one', 'two', 'few', 'many', 'other'],
    ordinal: ['other'],
    unused: { key: 'place_ordinal_few', label: 'ar ordinals: other' },
  },
  {
    locale: 'cy',
    cardinal: ['zero', 'one', 'two', 'few', 'many', 'other'],
    ordinal: ['zero', 'one', 'two', 'few', 'many', 'other'],
  },
  // French `one` covers 0 and 1; `many` is for 1,000,000 (compact numbers).
  {
    locale: 'fr',
    cardinal: ['one', 'many', 'other'],
    ordinal: ['one', 'other'],
    unused: { key: 'cart.item_few', label: 'fr: one, many, other' },
  },
  // pt and pt-PT: CLDR may give them different rules; each locale gets its own. In the data Node
  // 20 ships they agree.
  {
    locale: 'pt',
    cardinal: ['one', 'many', 'other'],
    ordinal: ['other'],
    unused: { key: 'cart.item_two', label: 'pt: one, many, other' },
  },
  {
    locale: 'pt-PT',
    cardinal: ['one', 'many', 'other'],
    ordinal: ['other'],
    unused: { key: 'cart.item_few', label: 'pt-PT: one, many, other' },
  },
  {
    locale: 'de',
    cardinal: ['one', 'other'],
    ordinal: ['other'],
    unused: { key: 'cart.item_few', label: 'de: one, other' },
  },
  {
    locale: 'ja',
    cardinal: ['other'],
    ordinal: ['other'],
    unused: { key: 'cart.item_one', label: 'ja: other' },
  },
  {
    locale: 'zh-Hant',
    cardinal: ['other'],
    ordinal: ['other'],
    unused: { key: 'cart.item_one', label: 'zh-Hant: other' },
  },
  // An English target of an English source: the ordinal group keeps all four forms.
  {
    locale: 'en-GB',
    cardinal: ['one', 'other'],
    ordinal: ['one', 'two', 'few', 'other'],
    unused: { key: 'cart.item_many', label: 'en-GB: one, other' },
  },
];

const cardinalKey = (category: string) => `cart.item_${category}`;
const ordinalKey = (category: string) => `place_ordinal_${category}`;

/** The translation of every key of `keys` (flat), nested as the source nests `cart`. */
function translation(locale: string, keys: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const cart: Record<string, string> = {};
  for (const key of keys) {
    if (key === 'title') body[key] = `Cart (${locale})`;
    else if (key.startsWith('cart.')) cart[key.slice('cart.'.length)] = `{{count}} ${locale} ${key}`;
    else body[key] = `{{count}} ${locale} ${key}`;
  }
  if (Object.keys(cart).length > 0) body['cart'] = cart;
  return body;
}

/** A project with `locales` whose source is `source` at version 1, seen by each locale. */
async function projectWith(locales: string[], source: unknown = SOURCE, body: Record<string, unknown> = {}) {
  const project = await service.projectWithLocales(locales, { sourceLocale: 'en', ...body });
  await service.putSource(project.projectId, project.owner, source);
  for (const locale of locales)
    await service.waitForSourceVersion(project.projectId, locale, project.owner, 1);
  return project;
}

function expectLocale(body: Record<string, unknown>, expected: Record<string, unknown>) {
  expect(body).toMatchObject(expected);
}

describe('a locale of a source with i18next plural groups, per language', () => {
  it.each(CASES)(
    'when the target is $locale, then its keys, the upload check and the download are its own forms',
    async ({ locale, cardinal, ordinal, unused }) => {
      const project = await projectWith([locale]);
      const { projectId, owner } = project;
      const keys = ['title', ...cardinal.map(cardinalKey), ...ordinal.map(ordinalKey)];

      const fresh = await service.getLocale(projectId, locale, owner);
      expectLocale(fresh, {
        status: 'behind',
        keyCount: keys.length,
        translatedCount: 0,
        missingCount: keys.length,
        missing: keys,
        outdated: [],
      });

      // A form the language does not use: ignored and named, the rest stored (DESIGN §15).
      if (unused) {
        const ignoring = await service.putTranslations(
          projectId,
          locale,
          owner,
          1,
          translation(locale, [...keys, unused.key]),
        );
        expect(ignoring.status).toBe(200);
        expectLocale(ignoring.body, { ignored: [unused.key], ignoredCount: 1, translatedCount: keys.length });
        expect(Object.keys(await service.download(projectId, locale, owner))).not.toContain(unused.key);
      }

      // Only the forms every language has (`other`): accepted; the rest are missing.
      const partial = ['title', cardinalKey('other'), ordinalKey('other')];
      const rest = keys.filter((key) => !partial.includes(key));
      const partly = await service.putTranslations(projectId, locale, owner, 1, translation(locale, partial));
      expect(partly.status).toBe(200);
      expectLocale(partly.body, {
        status: rest.length === 0 ? 'up_to_date' : 'behind',
        syncedVersion: rest.length === 0 ? 1 : 0,
        keyCount: keys.length,
        translatedCount: partial.length,
        missingCount: rest.length,
      });
      expectLocale(await service.getLocale(projectId, locale, owner), { missing: rest, outdated: [] });

      // Every form of the language: up to date.
      const complete = await service.putTranslations(projectId, locale, owner, 1, translation(locale, keys));
      expect(complete.status).toBe(200);
      expectLocale(complete.body, {
        status: 'up_to_date',
        syncedVersion: 1,
        keyCount: keys.length,
        translatedCount: keys.length,
        missingCount: 0,
        outdatedCount: 0,
      });

      // Downloaded at each group's place, in CLDR order.
      const file = await service.download(projectId, locale, owner);
      expect(Object.keys(file)).toEqual(['title', 'cart', ...ordinal.map(ordinalKey)]);
      expect(Object.keys(file['cart'] as object)).toEqual(cardinal.map((c) => `item_${c}`));
      expect(file).toStrictEqual(translation(locale, keys));
    },
  );
});

describe('POST /v1/projects/:projectId/locales after a source with plural groups', () => {
  it("when locales are added, then each answers with its own number of keys, or the source's with the setting off", async () => {
    const project = await service.createProject({ sourceLocale: 'en' });
    await service.putSource(project.projectId, project.owner, SOURCE);
    const add = (locale: string) =>
      service.call('POST', `/v1/projects/${project.projectId}/locales`, {
        as: project.owner,
        body: { locale },
      });
    // title + 4 cardinal + 1 ordinal; title + 6 + 6; title + 1 + 1.
    for (const [locale, keyCount] of [
      ['pl', 6],
      ['cy', 13],
      ['ja', 3],
    ] as const) {
      const added = await add(locale);
      expect(added.status).toBe(201);
      expect(added.body).toMatchObject({ locale, keyCount, missingCount: keyCount, sourceVersion: 1 });
    }
    await service.patchProject(project.ownerId, project.projectId, { settings: { i18nextPlurals: false } });
    await service.waitForLocale(
      project.projectId,
      'pl',
      project.owner,
      'plain keys',
      (l) => l['keyCount'] === 7,
    );
    const german = await add('de');
    expect(german.status).toBe(201);
    expect(german.body).toMatchObject({ keyCount: 7, missingCount: 7 });
  });
});

describe('the cases of issue 14', () => {
  const ENGLISH = { item_one: '{{count}} item', item_other: '{{count}} items' };

  it('when a Polish translation has one, few, many and other, then it is accepted and up to date', async () => {
    const { projectId, owner } = await projectWith(['pl'], ENGLISH);
    const response = await service.putTranslations(projectId, 'pl', owner, 1, {
      item_one: '{{count}} przedmiot',
      item_few: '{{count}} przedmioty',
      item_many: '{{count}} przedmiotów',
      item_other: '{{count}} przedmiotu',
    });
    expect(response.status).toBe(200);
    expectLocale(response.body, {
      status: 'up_to_date',
      keyCount: 4,
      translatedCount: 4,
      missingCount: 0,
    });
  });

  it("when a Polish translation has only English's forms, then it is accepted, behind, with few and many missing", async () => {
    const { projectId, owner } = await projectWith(['pl'], ENGLISH);
    const response = await service.putTranslations(projectId, 'pl', owner, 1, {
      item_one: '{{count}} przedmiot',
      item_other: '{{count}} przedmiotu',
    });
    expect(response.status).toBe(200);
    expectLocale(response.body, { status: 'behind', syncedVersion: 0, keyCount: 4, missingCount: 2 });
    expectLocale(await service.getLocale(projectId, 'pl', owner), {
      missing: ['item_few', 'item_many'],
      outdated: [],
    });
  });
});

/** The Polish translation of a cardinal group `item` (and `title`), complete. */
const POLISH = {
  title: 'Koszyk',
  item_one: '{{count}} przedmiot',
  item_few: '{{count}} przedmioty',
  item_many: '{{count}} przedmiotów',
  item_other: '{{count}} przedmiotu',
};

async function upToDatePolish(source: Record<string, string>, translations: Record<string, string> = POLISH) {
  const project = await projectWith(['pl'], source);
  const response = await service.putTranslations(project.projectId, 'pl', project.owner, 1, translations);
  expect(response.status).toBe(200);
  expect(response.body).toMatchObject({ status: 'up_to_date', syncedVersion: 1 });
  return project;
}

async function nextSource(project: { projectId: string; owner: Headers }, source: unknown, version: number) {
  expect((await service.putSource(project.projectId, project.owner, source)).version).toBe(version);
  return service.waitForSourceVersion(project.projectId, 'pl', project.owner, version);
}

describe('a change to a source form outdates the whole group', () => {
  const ENGLISH = { title: 'Cart', item_one: '{{count}} item', item_other: '{{count}} items' };
  const FORMS = ['item_one', 'item_few', 'item_many', 'item_other'];

  it('when one source form changes, then every Polish form is outdated and the rest stays', async () => {
    const project = await upToDatePolish(ENGLISH);
    await nextSource(project, { ...ENGLISH, item_one: 'One item' }, 2);
    expectLocale(await service.getLocale(project.projectId, 'pl', project.owner), {
      status: 'behind',
      syncedVersion: 1,
      sourceVersion: 2,
      keyCount: 5,
      translatedCount: 1,
      outdatedCount: 4,
      missing: [],
      outdated: FORMS,
    });
  });

  it('when a source form is removed, then every form is outdated although no value changed', async () => {
    const withZero = { ...ENGLISH, item_zero: 'No items' };
    const project = await upToDatePolish(withZero, { ...POLISH, item_zero: 'Brak przedmiotów' });
    // A source's `_zero` is translated by every locale (i18next asks for it for 0).
    expectLocale(await service.getLocale(project.projectId, 'pl', project.owner), { keyCount: 6 });
    await nextSource(project, ENGLISH, 2);
    expectLocale(await service.getLocale(project.projectId, 'pl', project.owner), {
      status: 'behind',
      syncedVersion: 1,
      keyCount: 5,
      translatedCount: 1,
      missingCount: 0,
      outdated: FORMS,
    });
    // Translations made from version 2 catch up.
    const { item_one, item_few, item_many, item_other, title } = POLISH;
    const again = await service.putTranslations(project.projectId, 'pl', project.owner, 2, {
      title,
      item_one,
      item_few,
      item_many,
      item_other,
    });
    expectLocale(again.body, { status: 'up_to_date', syncedVersion: 2, translatedCount: 5 });
  });

  it('when a group loses every form but other, then the plain key left is outdated', async () => {
    const project = await upToDatePolish(ENGLISH);
    await nextSource(project, { title: 'Cart', item_other: '{{count}} items' }, 2);
    expectLocale(await service.getLocale(project.projectId, 'pl', project.owner), {
      status: 'behind',
      syncedVersion: 1,
      keyCount: 2,
      translatedCount: 1,
      missing: [],
      outdated: ['item_other'],
    });
  });

  it('when a source form is added, then the other forms are outdated and a new target form is missing', async () => {
    const project = await upToDatePolish(ENGLISH);
    await nextSource(project, { ...ENGLISH, item_zero: 'No items' }, 2);
    expectLocale(await service.getLocale(project.projectId, 'pl', project.owner), {
      status: 'behind',
      syncedVersion: 1,
      keyCount: 6,
      missing: ['item_zero'],
      outdated: FORMS,
    });
  });

  it('when translations are uploaded from a version before the group changed, then its forms count as outdated', async () => {
    const project = await projectWith(['pl'], { ...ENGLISH, item_two: '{{count}} items (two)' });
    await nextSource(project, ENGLISH, 2);
    const response = await service.putTranslations(project.projectId, 'pl', project.owner, 1, POLISH);
    expect(response.status).toBe(200);
    expectLocale(response.body, {
      status: 'behind',
      syncedVersion: 1,
      sourceVersion: 2,
      translatedCount: 1,
      outdatedCount: 4,
    });
  });

  it('when a key outside the group changes, then the group stays translated', async () => {
    const project = await upToDatePolish(ENGLISH);
    await nextSource(project, { ...ENGLISH, title: 'Basket' }, 2);
    expectLocale(await service.getLocale(project.projectId, 'pl', project.owner), {
      syncedVersion: 1,
      translatedCount: 4,
      outdated: ['title'],
    });
  });
});

describe('the upload check over plural forms', () => {
  it("when the model's Polish form lacks the placeholder every source form has, then 400 naming it, and nothing is stored", async () => {
    const { projectId, owner } = await projectWith(['pl'], {
      item_one: '{{count}} item',
      item_other: '{{count}} items',
    });
    const polish = {
      item_one: '{{count}} przedmiot',
      item_few: 'kilka przedmiotów',
      item_many: '{{count}} przedmiotów',
      item_other: '{{count}} przedmiotu',
    };
    const response = await service.putTranslations(projectId, 'pl', owner, 1, claimedByModel(polish));
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toBe(
      'Placeholders differ from the source in 1 key(s): "item_few" ("item_few": missing {{count}}); nothing was stored',
    );
    expectLocale(await service.getLocale(projectId, 'pl', owner), { translatedCount: 0, missingCount: 4 });

    // A person's: stored, the form with its error.
    expectLocale((await service.putTranslations(projectId, 'pl', owner, 1, polish)).body, {
      translatedCount: 4,
      errorCount: 1,
    });
    expect((await service.getLocale(projectId, 'pl', owner)).findings).toEqual([
      {
        key: 'item_few',
        kind: 'placeholder',
        severity: 'error',
        message: 'placeholders differ from the source: lost {{count}}',
      },
    ]);
  });

  it('when the English source leaves {{count}} out of one form, then a Polish form may too', async () => {
    const { projectId, owner } = await projectWith(['pl'], {
      item_one: 'One item',
      item_other: '{{count}} items',
    });
    const response = await service.putTranslations(projectId, 'pl', owner, 1, {
      item_one: 'Jeden przedmiot',
      item_few: '{{count}} przedmioty',
      item_many: '{{count}} przedmiotów',
      item_other: '{{count}} przedmiotu',
    });
    expect(response.status).toBe(200);
  });

  it("when the model's form does not parse as ICU where its source forms do, then 400 naming the form, and nothing is stored", async () => {
    const { projectId, owner } = await projectWith(['pl'], {
      files_one: 'One file',
      files_other: '{count} files',
    });
    const response = await service.putTranslations(
      projectId,
      'pl',
      owner,
      1,
      claimedByModel({
        files_one: 'Jeden plik',
        files_few: '{count pliki',
        files_many: '{count} plików',
        files_other: '{count} pliku',
      }),
    );
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toMatch(
      /^ICU messages break the rules for pl in 1 key\(s\): "files_few": does not parse as an ICU message, as its source does \(.+\); nothing was stored$/,
    );
    expectLocale(await service.getLocale(projectId, 'pl', owner), { translatedCount: 0 });
  });

  it('when an upload has both a key the source lacks and an unused form, then both are ignored and named', async () => {
    const { projectId, owner } = await projectWith(['de'], { item_one: 'One', item_other: '{{count}}' });
    const response = await service.putTranslations(projectId, 'de', owner, 1, {
      item_one: 'Eins',
      item_few: '{{count}}',
      nope: 'x',
    });
    expect(response.status).toBe(200);
    expectLocale(response.body, { ignored: ['item_few', 'nope'], ignoredCount: 2, translatedCount: 1 });
  });
});

describe('the project setting i18nextPlurals', () => {
  const ENGLISH = { title: 'Cart', item_one: '{{count}} item', item_other: '{{count}} items' };

  it('when it is turned off, then plural keys are plain keys for every locale, without a new source version', async () => {
    const project = await projectWith(['pl', 'ja'], ENGLISH);
    const { projectId, owner, ownerId } = project;
    expectLocale(await service.getLocale(projectId, 'pl', owner), { keyCount: 5 });
    expectLocale(await service.getLocale(projectId, 'ja', owner), { keyCount: 2 });

    await service.patchProject(ownerId, projectId, { settings: { i18nextPlurals: false } });
    const polish = await service.waitForLocale(
      projectId,
      'pl',
      owner,
      'three plain keys',
      (l) => l['keyCount'] === 3,
    );
    expectLocale(polish, { sourceVersion: 1, missing: ['title', 'item_one', 'item_other'] });
    expectLocale(await service.getLocale(projectId, 'ja', owner), {
      keyCount: 3,
      missing: ['title', 'item_one', 'item_other'],
    });

    // A Polish form is now a key the source lacks; the source's own keys are what counts.
    const few = await service.putTranslations(projectId, 'pl', owner, 1, { ...POLISH });
    expect(few.status).toBe(200);
    expectLocale(few.body, { ignored: ['item_few', 'item_many'], ignoredCount: 2 });
    const plain = await service.putTranslations(projectId, 'ja', owner, 1, {
      title: 'カート',
      item_one: '{{count}}個',
      item_other: '{{count}}個',
    });
    expectLocale(plain.body, { status: 'up_to_date', keyCount: 3, translatedCount: 3 });
    expect(Object.keys(await service.download(projectId, 'ja', owner))).toEqual([
      'title',
      'item_one',
      'item_other',
    ]);

    // On again: Japanese has only `other`; the stored `item_one` is neither counted nor written.
    await service.patchProject(ownerId, projectId, { settings: { i18nextPlurals: true } });
    const japanese = await service.waitForLocale(
      projectId,
      'ja',
      owner,
      'two keys',
      (l) => l['keyCount'] === 2,
    );
    expectLocale(japanese, { status: 'up_to_date', translatedCount: 2, missing: [], outdated: [] });
    expect(await service.download(projectId, 'ja', owner)).toStrictEqual({
      title: 'カート',
      item_other: '{{count}}個',
    });
    expectLocale(await service.getLocale(projectId, 'pl', owner), { keyCount: 5 });
  });

  it('when a project is created with it off, then its locales count the source keys as they are', async () => {
    const { projectId, owner } = await projectWith(['pl'], ENGLISH, { settings: { i18nextPlurals: false } });
    expectLocale(await service.getLocale(projectId, 'pl', owner), {
      keyCount: 3,
      missing: ['title', 'item_one', 'item_other'],
    });
    const uploaded = await service.putTranslations(projectId, 'pl', owner, 1, {
      title: 'Koszyk',
      item_one: '{{count}} przedmiot',
      item_other: '{{count}} przedmiotu',
    });
    expectLocale(uploaded.body, { status: 'up_to_date', translatedCount: 3 });
  });
});
