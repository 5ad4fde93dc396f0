/**
 * The embedded mode (DESIGN §8) as `npm start` runs it without servers: every service and the
 * gateway in this process, PGlite, the in-process bus, caches and limits in memory. The core flow
 * and every route answer here as they do against the real servers (test/e2e).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedSystem, type EmbeddedSystem } from './embedded-harness.js';

describe('Tolk embedded in one process', () => {
  let tolk: EmbeddedSystem;

  beforeAll(async () => {
    tolk = await startEmbeddedSystem();
  }, 60_000);
  afterAll(async () => {
    await tolk?.close();
  });

  const call: EmbeddedSystem['call'] = (...args) => tolk.call(...args);

  /** How long the bus may take to carry an event between the services. */
  const settled = { timeout: 10_000, interval: 20 };

  it('when a user signs up, creates a project, uploads a source and translates, then locales follow as with the servers', async () => {
    const signup = await call('POST', '/v1/auth/signup', undefined, {
      email: 'ada@example.com',
      password: 'correct horse battery',
    });
    expect(signup.status).toBe(201);
    const token = signup.body.accessToken as string;
    const created = await call('POST', '/v1/projects', token, { name: 'Shop', sourceLocale: 'en' });
    expect(created.status).toBe(201);
    const project = `/v1/projects/${created.body.projectId}`;
    expect((await call('POST', `${project}/locales`, token, { locale: 'de' })).status).toBe(201);

    const first = await call('PUT', `${project}/source`, token, {
      cart: { title: 'Cart', pay: 'Pay {amount}' },
    });
    expect(first.body).toMatchObject({ version: 1, keyCount: 2, needsTranslation: true });
    const behind = await vi.waitFor(async () => {
      const detail = await call('GET', `${project}/locales/de`, token);
      expect(detail.body.sourceVersion).toBe(1);
      return detail.body;
    }, settled);
    expect(behind).toMatchObject({ status: 'behind', missing: ['cart.title', 'cart.pay'] });

    const translated = await call('PUT', `${project}/locales/de/translations?sourceVersion=1`, token, {
      cart: { title: 'Warenkorb', pay: 'Zahle {amount}' },
    });
    expect(translated.body).toMatchObject({ status: 'up_to_date', syncedVersion: 1 });
    await expect
      .poll(async () => (await call('GET', `${project}/source`, token)).body.pendingDiff.added, settled)
      .toEqual([]);

    await call('PUT', `${project}/source`, token, { cart: { title: 'Basket', pay: 'Pay {amount}' } });
    const outdated = await vi.waitFor(async () => {
      const detail = await call('GET', `${project}/locales/de`, token);
      expect(detail.body.sourceVersion).toBe(2);
      return detail.body;
    }, settled);
    expect(outdated).toMatchObject({ status: 'behind', outdated: ['cart.title'], missing: [] });

    // Project tokens, revocation and provider keys work here too.
    const ci = await call('POST', `${project}/tokens`, token, { label: 'ci', permissions: 'read_write' });
    expect(ci.status).toBe(201);
    expect((await call('GET', `${project}/source`, ci.body.token)).status).toBe(200);
    expect((await call('DELETE', `${project}/tokens/${ci.body.tokenId}`, token)).status).toBe(204);
    await expect
      .poll(async () => (await call('GET', `${project}/source`, ci.body.token)).status, settled)
      .toBe(401);
    expect((await call('PUT', '/v1/user/byok/openai', token, { apiKey: 'sk-embedded-123456' })).status).toBe(
      200,
    );
    expect((await call('GET', '/v1/user/byok/openai', token)).body).toEqual({
      hasKey: true,
      apiKey: 'sk-embedded-123456',
    });
    expect((await call('GET', '/v1/projects/prj_nope', token)).status).toBe(404);
    expect((await call('GET', '/v1/user/me')).body.error.code).toBe('UNAUTHORIZED');
  });

  it('when an account is deleted, then the project it alone owned and its tokens go and its access token is refused, as with the servers', async () => {
    const email = 'leaving@example.com';
    const signup = await call('POST', '/v1/auth/signup', undefined, {
      email,
      password: 'correct horse battery',
    });
    const token = signup.body.accessToken as string;
    const created = await call('POST', '/v1/projects', token, { name: 'Mine', sourceLocale: 'en' });
    const project = `/v1/projects/${created.body.projectId}`;
    const projectToken = await call('POST', `${project}/tokens`, token, { label: 'CI', permissions: 'read' });
    const colleague = await call('POST', '/v1/auth/signup', undefined, {
      email: 'staying@example.com',
      password: 'correct horse battery',
    });
    const colleagueToken = colleague.body.accessToken as string;
    expect(
      (await call('POST', `${project}/members`, token, { email: 'staying@example.com', role: 'member' }))
        .status,
    ).toBe(201);
    expect((await call('GET', project, colleagueToken)).status).toBe(200);
    expect((await call('PUT', '/v1/user/byok/openai', token, { apiKey: 'sk-test-embedded-1' })).status).toBe(
      200,
    );

    const unconfirmed = await call('DELETE', '/v1/user/me', token);
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body.error.message).toContain(`"Mine" (${created.body.projectId})`);
    expect((await call('DELETE', '/v1/user/me', token, { confirm: email })).status).toBe(204);

    await expect.poll(async () => (await call('GET', '/v1/projects', token)).status, settled).toBe(401);
    await expect
      .poll(async () => (await call('GET', project, projectToken.body.token as string)).status, settled)
      .toBe(401);
    // The project the account alone owned is gone for its other member too; the email is free again.
    await expect.poll(async () => (await call('GET', project, colleagueToken)).status, settled).toBe(404);
    const again = await call('POST', '/v1/auth/signup', undefined, {
      email,
      password: 'correct horse battery',
    });
    expect(again.status).toBe(201);
  });

  it('when glossary entries are imported, merged, read a page at a time and deleted, then it answers as with the servers (PGlite runs the migrations and their queries)', async () => {
    const { token } = await tolk.signUp();
    const project = await call('POST', '/v1/projects', token, { name: 'P', sourceLocale: 'en' });
    expect(project.status).toBe(201);
    const path = `/v1/projects/${project.body.projectId}/glossary`;

    const imported = await call('PUT', path, token, {
      entries: [
        { term: 'cart', translations: { de: 'Warenkorb' } },
        { term: 'Tolk', keepAsIs: true },
      ],
    });
    expect(imported.status).toBe(200);
    const merged = await call('PUT', `${path}?merge=true`, token, { entries: [{ term: 'checkout' }] });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ created: 1, total: 3 });
    const page = await call('GET', `${path}?limit=2`, token);
    expect(page.body.entries.map((e: { term: string }) => e.term)).toEqual(['cart', 'checkout']);
    const rest = await call('GET', `${path}?limit=2&cursor=${page.body.nextCursor as string}`, token);
    expect(rest.body).toMatchObject({ total: 3, nextCursor: null });
    expect(rest.body.entries.map((e: { term: string }) => e.term)).toEqual(['Tolk']);

    const replaced = await call('PUT', path, token, {
      entries: [{ term: 'CART', translations: { de: 'Korb' } }],
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ created: 0, updated: 1, deleted: 2, total: 1, bytes: 10 });
    const [entry] = (await call('GET', path, token)).body.entries;
    expect(entry.translations).toEqual({ de: 'Korb' });

    expect((await call('DELETE', `${path}/${entry.entryId}`, token)).status).toBe(204);
    expect((await call('GET', path, token)).body).toEqual({ entries: [] });
  });

  it('when the process is scraped, then its Node numbers are labelled with Tolk, not with one of its apps', async () => {
    const response = await fetch(`${tolk.metricsUrl}/metrics`);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toMatch(/^process_cpu_user_seconds_total\{service="tolk"\} /m);
    expect(text).not.toMatch(/^process_cpu_user_seconds_total\{service="(?!tolk")/m);
  });
});
