/**
 * People's translations taken as they are (DESIGN §15) through the one public entry: the real
 * gateway in front of every service, events through the outboxes and RabbitMQ. A person's values
 * are stored with their findings and counted as translated, a model's that break a rule refuse
 * the upload, keys the locale does not have are ignored and named, and the counts follow the
 * current source.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSystem, type System } from './system.js';

describe("people's translations with findings through the gateway", () => {
  let system: System;

  beforeAll(async () => {
    system = await startSystem({ sources: true });
  });
  afterAll(async () => {
    await system?.close();
  });

  const call: System['call'] = (...args) => system.call(...args);
  const settled = { timeout: 10_000, interval: 20 };

  /** Like Mastodon's web app: ICU messages, flat dotted keys. */
  const ENGLISH = {
    'notifications.count': '{count, plural, one {# new notification} other {# new notifications}}',
    'compose.placeholder': "What's on your mind, {name}?",
    'status.reblog': 'Boost',
    'settings.title': 'Account settings',
  };
  /** What Polish translators really write: no `many`, one message broken, one left in English. */
  const POLISH = {
    'notifications.count':
      '{count, plural, one {# nowe powiadomienie} few {# nowe powiadomienia} other {# nowych powiadomień}}',
    'compose.placeholder': 'Co ci chodzi po głowie, {name?',
    'status.reblog': 'Podbij',
    'settings.title': 'Account settings',
    'gone.key': 'Usunięty klucz',
  };

  async function polishProject() {
    const user = await system.signUp();
    const created = await call('POST', '/v1/projects', user.token, { name: 'Mastodon', sourceLocale: 'en' });
    const project = `/v1/projects/${created.body.projectId}`;
    expect((await call('POST', `${project}/locales`, user.token, { locale: 'pl' })).status).toBe(201);
    expect((await call('PUT', `${project}/source`, user.token, ENGLISH)).status).toBe(200);
    await vi.waitFor(async () => {
      const detail = await call('GET', `${project}/locales/pl`, user.token);
      expect(detail.body.sourceVersion, 'pl at version 1').toBe(1);
    }, settled);
    return { token: user.token, project };
  }

  it("when a person's Polish file has a plural without many, a malformed message, a copy and an unknown key, then it is stored with its findings", async () => {
    const { token, project } = await polishProject();
    const uploaded = await call('PUT', `${project}/locales/pl/translations?sourceVersion=1`, token, POLISH);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toMatchObject({
      locale: 'pl',
      status: 'up_to_date',
      keyCount: 4,
      translatedCount: 4,
      missingCount: 0,
      errorCount: 1,
      warningCount: 2,
      ignored: ['gone.key'],
      ignoredCount: 1,
    });

    const detail = await call('GET', `${project}/locales/pl`, token);
    expect(detail.body).toMatchObject({ translatedCount: 4, errorCount: 1, warningCount: 2 });
    expect(detail.body.findings).toEqual([
      {
        key: 'notifications.count',
        kind: 'plural',
        severity: 'warning',
        message: '{count, plural} lacks many (pl: one, few, many, other)',
      },
      {
        key: 'compose.placeholder',
        kind: 'icu',
        severity: 'error',
        message: expect.stringMatching(/^does not parse as an ICU message, as its source does \(.+\)$/),
      },
      {
        key: 'settings.title',
        kind: 'copy',
        severity: 'warning',
        message: 'the same text as the source (en): not translated?',
      },
    ]);
    const list = await call('GET', `${project}/locales`, token);
    expect(list.body.locales).toEqual([
      expect.objectContaining({ locale: 'pl', errorCount: 1, warningCount: 2 }),
    ]);

    // Every value is there as the person wrote it, the unknown key is not.
    const pulled = await call('GET', `${project}/locales/pl/translations`, token);
    const { 'gone.key': _gone, ...kept } = POLISH;
    expect(JSON.parse(pulled.body.content as string)).toStrictEqual(kept);

    const errors = await call('GET', `${project}/keys?findings=error`, token);
    expect(errors.body.keys.map((row: { key: string }) => row.key)).toEqual(['compose.placeholder']);
    expect(errors.body.keys[0].locales.pl).toMatchObject({
      value: POLISH['compose.placeholder'],
      status: 'translated',
      findings: [{ kind: 'icu', severity: 'error' }],
    });
  });

  it("when the model's value breaks a rule, then 400 naming it and nothing of the upload is stored", async () => {
    const { token, project } = await polishProject();
    const person = await call('PUT', `${project}/locales/pl/translations?sourceVersion=1`, token, {
      'status.reblog': 'Podbij',
    });
    expect(person.status).toBe(200);
    const before = await call('GET', `${project}/locales/pl`, token);

    const refused = await call('PUT', `${project}/locales/pl/translations?sourceVersion=1`, token, {
      ...POLISH,
      '@@provenance': { ai: { model: 'openai:gpt-4o-mini', keys: ['notifications.count'] } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toStrictEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message:
          'ICU messages break the rules for pl in 1 key(s): "notifications.count": {count, plural} lacks many ' +
          '(pl: one, few, many, other); nothing was stored',
      },
    });
    expect((await call('GET', `${project}/locales/pl`, token)).body).toStrictEqual(before.body);
  });

  it('when the source changes, then the counts follow it: a deleted key takes its findings along, a changed one keeps them as judged', async () => {
    const { token, project } = await polishProject();
    await call('PUT', `${project}/locales/pl/translations?sourceVersion=1`, token, POLISH);
    const { 'settings.title': _deleted, ...rest } = ENGLISH;
    const changed = await call('PUT', `${project}/source`, token, {
      ...rest,
      'notifications.count': '{count, plural, one {# unread notification} other {# unread notifications}}',
    });
    expect(changed.body).toMatchObject({ version: 2 });
    const detail = await vi.waitFor(async () => {
      const response = await call('GET', `${project}/locales/pl`, token);
      expect(response.body.sourceVersion, 'pl at version 2').toBe(2);
      return response.body;
    }, settled);
    expect(detail).toMatchObject({
      keyCount: 3,
      outdated: ['notifications.count'],
      errorCount: 1,
      warningCount: 1,
    });
    expect(detail.findings.map((finding: { key: string }) => finding.key)).toEqual([
      'notifications.count',
      'compose.placeholder',
    ]);
  });
});
