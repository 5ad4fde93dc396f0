/**
 * The project's `settings.i18nextPlurals` (DESIGN §11) and `settings.keyRules` (DESIGN §13) as the
 * CLI reads them: a server that sends them and one that does not yet are both understood; absent
 * means plural keys are recognised and no key has a rule.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../src/api/api-client.js';
import { tolkApi } from '../src/api/tolk-api.js';
import { projectKeyRules } from '../src/translate/key-rules.js';

const project = {
  projectId: 'p1',
  name: 'Shop',
  sourceLocale: 'en',
  settings: { provider: null, model: null, instructions: null },
  role: 'owner',
  createdAt: 1,
  updatedAt: 2,
};

describe('tolkApi.getProject', () => {
  let answer: unknown;
  let url: string;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const getProject = () =>
    tolkApi(createApiClient({ apiUrl: url, auth: { token: async () => 't' }, maxRetries: 0 })).getProject(
      'p1',
    );

  it('when the server sends settings.i18nextPlurals, then it is read', async () => {
    answer = { ...project, settings: { ...project.settings, i18nextPlurals: false } };
    expect((await getProject()).settings.i18nextPlurals).toBe(false);
  });

  it('when the server does not send it, then the project is read all the same, without it', async () => {
    answer = project;
    expect((await getProject()).settings).toEqual(project.settings);
  });

  it('when it is not a boolean, then the answer is refused', async () => {
    answer = { ...project, settings: { ...project.settings, i18nextPlurals: 'yes' } };
    await expect(getProject()).rejects.toThrow();
  });

  it('when the server sends key rules, then the CLI applies them', async () => {
    const keyRules = { humanOnly: ['legal.*'], neverTranslate: ['**.url'], exclude: ['debug.**'] };
    answer = { ...project, settings: { ...project.settings, keyRules } };
    const rules = projectKeyRules(await getProject());
    expect(['legal.terms', 'footer.url', 'debug.id', 'title'].map((key) => rules.ruleOf(key))).toEqual([
      'humanOnly',
      'neverTranslate',
      'exclude',
      undefined,
    ]);
  });

  it('when the server sends no key rules, then no key has one', async () => {
    answer = project;
    expect(projectKeyRules(await getProject()).empty).toBe(true);
  });

  it('when the key rules are not three lists of strings, then the answer is refused', async () => {
    answer = { ...project, settings: { ...project.settings, keyRules: { exclude: 'debug.**' } } };
    await expect(getProject()).rejects.toThrow();
  });
});
