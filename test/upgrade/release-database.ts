/**
 * The databases made by previous releases (fixtures/README.md) and the steps that made them, for
 * tests that upgrade one and compare it with a fresh database that went through the same steps.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, vi } from 'vitest';
import type { System } from '../e2e/system.js';
import { settled, type TestDatabase } from '@tolk/testing';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');

/** The password of the user of every release's database (the e2e harness's). */
export const RELEASE_PASSWORD = 'correct horse battery';

/** Restores the dump of the release at `commit` into `database`. */
export async function restoreRelease(database: TestDatabase, commit: string): Promise<void> {
  // A Db of its own: the dump sets the session's search_path.
  const restoring = database.db('public');
  try {
    await restoring.query(await readFile(path.join(FIXTURES, `${commit}.sql`), 'utf8'));
  } finally {
    await restoring.close();
  }
}

export const SOURCE_V1 = {
  cart: {
    title: 'Your cart',
    empty: 'Your cart is empty',
    items_one: '{{count}} item',
    items_other: '{{count}} items',
  },
  checkout: { pay: 'Pay {{amount}}', done: 'Thank you' },
  menu: { home: 'Home', settings: 'Settings', help: 'Help' },
};

export const SOURCE_V2 = {
  ...SOURCE_V1,
  checkout: { ...SOURCE_V1.checkout, done: 'Thank you for your order' },
  menu: { ...SOURCE_V1.menu, about: 'About' },
};

export const UPLOADS = {
  de: {
    cart: {
      title: 'Dein Warenkorb',
      empty: 'Dein Warenkorb ist leer',
      items_one: '{{count}} Artikel',
      items_other: '{{count}} Artikel',
    },
    checkout: { pay: 'Zahle {{amount}}', done: 'Danke' },
    menu: { home: 'Start', settings: 'Einstellungen', help: 'Hilfe' },
  },
  pl: {
    cart: { title: 'Twój koszyk', items_one: '{{count}} produkt', items_other: '{{count}} produktów' },
    // Left as the source text: this release finds a copy (a warning); the first release had no findings.
    menu: { home: 'Start', settings: 'Ustawienia', help: 'Help' },
  },
};

/**
 * Steps 1 to 4 of fixtures/README.md by a new user of `system`: the project `Shop` with `de` and
 * `pl`, source version 1, both uploads, source version 2; with `rulesAndGlossary`, step 5 too.
 * Answers the project's id, the user's id and token.
 */
export async function takeReleaseSteps(
  system: System,
  options: { rulesAndGlossary?: boolean } = {},
): Promise<{ projectId: string; token: string; userId: string }> {
  const { token, userId } = await system.signUp();
  const created = await system.call('POST', '/v1/projects', token, { name: 'Shop', sourceLocale: 'en' });
  expect(created.status).toBe(201);
  const projectId = created.body.projectId as string;
  const project = `/v1/projects/${projectId}`;
  for (const locale of ['de', 'pl']) {
    expect((await system.call('POST', `${project}/locales`, token, { locale })).status).toBe(201);
  }
  const atVersion = (version: number) =>
    vi.waitFor(async () => {
      const { body } = await system.call('GET', `${project}/locales`, token);
      expect((body.locales as Array<{ sourceVersion: number }>).map((l) => l.sourceVersion)).toEqual([
        version,
        version,
      ]);
    }, settled);
  expect((await system.call('PUT', `${project}/source`, token, SOURCE_V1)).status).toBe(200);
  await atVersion(1);
  for (const [locale, body] of Object.entries(UPLOADS)) {
    const uploaded = await system.call(
      'PUT',
      `${project}/locales/${locale}/translations?sourceVersion=1`,
      token,
      body,
    );
    expect(uploaded.status).toBe(200);
  }
  expect((await system.call('PUT', `${project}/source`, token, SOURCE_V2)).body).toMatchObject({
    version: 2,
  });
  await atVersion(2);
  if (options.rulesAndGlossary) {
    const rules = { settings: { keyRules: { humanOnly: ['menu.help'] } } };
    expect((await system.call('PATCH', project, token, rules)).status).toBe(200);
    const term = { term: 'cart', translations: { de: 'Warenkorb', pl: 'koszyk' } };
    expect((await system.call('POST', `${project}/glossary`, token, term)).status).toBe(201);
  }
  return { projectId, token, userId };
}
