/**
 * The core flow of the product through the one public entry, as the CLI drives it: the real
 * gateway in front of identity-, project-, source- and locale-service, events through the outboxes
 * and RabbitMQ. Create a project, add locales, upload the source, translate, change the source.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  /** Polls until `probe` returns something, for what follows an event. */
  async function eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = await probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`${what} did not happen within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

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

    const behind = await eventually('locales behind at version 1', async () => {
      const list = await call('GET', `${project}/locales`, user.token);
      const locales = list.body.locales as Array<{ status: string; sourceVersion: number }>;
      return locales.every((l) => l.sourceVersion === 1) ? locales : undefined;
    });
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
    await eventually('pendingDiff empty', async () => {
      const current = await call('GET', `${project}/source`, user.token);
      return current.body.pendingDiff.added.length === 0 ? current : undefined;
    });
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

    const german2 = await eventually('de at version 2', async () => {
      const detail = await call('GET', `${project}/locales/de`, user.token);
      return detail.body.sourceVersion === 2 ? detail.body : undefined;
    });
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
});
