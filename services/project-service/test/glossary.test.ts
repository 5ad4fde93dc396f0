import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  glossaryEntrySchema,
  glossaryResponseSchema,
  replaceGlossaryResponseSchema,
  type GlossaryEntry,
} from '@tolk/contracts';
import { expectError, startProjectService, type ProjectService, type Response } from './project-harness.js';

let service: ProjectService;
beforeAll(async () => {
  service = await startProjectService();
});
afterAll(async () => {
  await service?.close();
});

/** An owner, a member and an outsider of one new project, and its glossary's path. */
async function projectWithMember() {
  const people = await service.projectWithMember();
  return { ...people, path: `/v1/projects/${people.project.projectId}/glossary` };
}

async function addEntry(userId: string, path: string, body: Record<string, unknown>): Promise<GlossaryEntry> {
  const response = await service.call('POST', path, { as: await service.as(userId), body });
  expect(response.status).toBe(201);
  return glossaryEntrySchema.parse(response.body);
}

async function entriesOf(userId: string, path: string): Promise<GlossaryEntry[]> {
  const response = await service.call('GET', path, { as: await service.as(userId) });
  expect(response.status).toBe(200);
  return glossaryResponseSchema.parse(response.body).entries;
}

function expectValidation(response: Response, message: string | RegExp): void {
  expectError(response, 400, 'VALIDATION_ERROR');
  if (typeof message === 'string') expect(response.body.error.message).toBe(message);
  else expect(response.body.error.message).toMatch(message);
}

describe('POST /v1/projects/:projectId/glossary', () => {
  it('when the entry is valid, then 201 with exactly the entry, trimmed, locales canonical, defaults set', async () => {
    const { member, path } = await projectWithMember();
    const before = Date.now();

    const response = await service.call('POST', path, {
      as: await service.as(member.userId),
      body: {
        term: '  cart ',
        note: ' the shopping cart ',
        translations: { DE: 'Warenkorb', 'pt-br': 'Carrinho', fr: '  ' },
      },
    });

    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const entry = glossaryEntrySchema.parse(response.body);
    expect(entry).toStrictEqual({
      entryId: expect.stringMatching(/^gle_[0-9a-f]{32}$/),
      term: 'cart',
      caseSensitive: false,
      keepAsIs: false,
      note: 'the shopping cart',
      translations: { de: 'Warenkorb', 'pt-BR': 'Carrinho' },
      createdAt: expect.any(Number),
      updatedAt: entry.createdAt,
    });
    expect(entry.createdAt).toBeGreaterThanOrEqual(before);
  });

  it('when a term is 200 characters, then it is accepted; 1,000 characters, then 400 naming the length', async () => {
    const { owner, path } = await projectWithMember();
    await addEntry(owner.userId, path, { term: 't'.repeat(200) });

    const response = await service.call('POST', path, {
      as: await service.as(owner.userId),
      body: { term: 'x'.repeat(1000) },
    });
    expectValidation(response, 'body.term: must be at most 200 characters (it has 1000)');
  });

  it.each([
    [{ term: '' }, 'body.term: must not be empty'],
    [{ term: '   ' }, 'body.term: must not be empty'],
    [{}, 'body.term: is required'],
    [{ term: 7 }, 'body.term: must be a string'],
    [{ term: 'a\u0007b' }, 'body.term: must not contain control characters'],
    [{ term: 'cart', caseSensitive: 'yes' }, 'body.caseSensitive: must be true or false'],
    [{ term: 'cart', note: 'n'.repeat(1001) }, 'body.note: must be at most 1000 characters'],
    [
      { term: 'cart', translations: { de_DE: 'Warenkorb' } },
      'body.translations.de_DE: locale code "de_DE" is not a BCP 47 locale code such as de, pt-BR, zh-Hant or es-419 (BCP 47 separates with "-": de-DE)',
    ],
    [
      { term: 'cart', translations: { de: 'Warenkorb', DE: 'Korb' } },
      'body.translations.DE: is the same locale as "de" (de)',
    ],
    [
      { term: 'cart', translations: ['de'] },
      'body.translations: must be a JSON object of locale code → text',
    ],
    [{ term: 'cart', translations: { de: 3 } }, 'body.translations.de: must be a string'],
    [
      { term: 'Tolk', keepAsIs: true, translations: { de: 'Tolk' } },
      'body.translations: must be empty when keepAsIs is true (the term stays as it is in every locale)',
    ],
  ])('when the body is %j, then 400 %s and nothing is stored', async (body, message) => {
    const { owner, path } = await projectWithMember();
    const response = await service.call('POST', path, { as: await service.as(owner.userId), body });
    expectValidation(response, message);
    expect(await entriesOf(owner.userId, path)).toEqual([]);
  });

  it('when the term exists in another case, then 409 naming the existing entry', async () => {
    const { owner, path } = await projectWithMember();
    const first = await addEntry(owner.userId, path, { term: 'Apple', caseSensitive: true });

    const response = await service.call('POST', path, {
      as: await service.as(owner.userId),
      body: { term: 'APPLE' },
    });

    expectError(response, 409, 'CONFLICT');
    expect(response.body.error.message).toBe(
      `The glossary already has an entry for "Apple" (${first.entryId}); terms are compared ignoring case`,
    );
  });
});

describe('concurrent changes to one glossary', () => {
  it('when the same term is added five times at once, then one 201 and four 409, never a 500', async () => {
    const { owner, member, path } = await projectWithMember();
    const callers = [owner, member, owner, member, owner];
    const responses = await Promise.all(
      callers.map(async (caller, i) =>
        service.call('POST', path, {
          as: await service.as(caller.userId),
          body: { term: i % 2 ? 'CART' : 'cart' },
        }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await entriesOf(owner.userId, path)).toHaveLength(1);
  });

  it('when two imports run at once, then the glossary is exactly one of them', async () => {
    const { owner, path } = await projectWithMember();
    const as = await service.as(owner.userId);
    const first = Array.from({ length: 300 }, (_, i) => ({ term: `first ${i}` }));
    const second = Array.from({ length: 200 }, (_, i) => ({ term: `second ${i}` }));
    const answers = await Promise.all([
      service.call('PUT', path, { as, body: { entries: first } }),
      service.call('PUT', path, { as, body: { entries: second } }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const terms = (await entriesOf(owner.userId, path)).map((e) => e.term.split(' ')[0]);
    expect([...new Set(terms)]).toHaveLength(1);
    expect(terms.length).toBe(terms[0] === 'first' ? 300 : 200);
  });
});

describe('who may use /v1/projects/:projectId/glossary', () => {
  it('when an outsider reads or writes, then 404 as for a project that does not exist', async () => {
    const { outsider, path } = await projectWithMember();
    const as = await service.as(outsider.userId);
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { term: 'x' }],
      ['PUT', { entries: [] }],
    ] as const) {
      const response = await service.call(method, path, { as, body });
      expectError(response, 404, 'NOT_FOUND');
      expect(response.body.error.message).toBe('Project not found');
    }
  });

  it('when there is no principal, then 401', async () => {
    const { path } = await projectWithMember();
    expectError(await service.call('GET', path), 401, 'UNAUTHORIZED');
  });

  it('when a project token reads, then 200; a read token imports: 403; a read_write token imports: 200', async () => {
    const { owner, project, path } = await projectWithMember();
    await addEntry(owner.userId, path, { term: 'cart', translations: { de: 'Warenkorb' } });

    const read = await service.call('GET', path, { as: await service.asProjectToken(project.projectId) });
    expect(read.status).toBe(200);
    expect(glossaryResponseSchema.parse(read.body).entries.map((e) => e.term)).toEqual(['cart']);

    const body = { entries: [{ term: 'checkout' }] };
    const refused = await service.call('PUT', path, {
      as: await service.asProjectToken(project.projectId, 'read'),
      body,
    });
    expectError(refused, 403, 'FORBIDDEN');
    expect((await entriesOf(owner.userId, path)).map((e) => e.term)).toEqual(['cart']);

    const imported = await service.call('PUT', path, {
      as: await service.asProjectToken(project.projectId, 'read_write'),
      body,
    });
    expect(imported.status).toBe(200);
    expect((await entriesOf(owner.userId, path)).map((e) => e.term)).toEqual(['checkout']);
  });

  it('when the read_write token has been revoked, then an import answers 401 and nothing is stored; token-service down: 503', async () => {
    const { owner, project, path } = await projectWithMember();
    await addEntry(owner.userId, path, { term: 'cart', translations: { de: 'Warenkorb' } });
    const token = await service.asProjectToken(project.projectId, 'read_write');
    const body = { entries: [{ term: 'checkout' }] };

    service.tokens.setTrouble('down');
    expectError(await service.call('PUT', path, { as: token, body }), 503, 'SERVICE_UNAVAILABLE');
    service.tokens.setTrouble(undefined);
    service.tokens.revokeTokensOf(project.projectId);
    const refused = await service.call('PUT', path, { as: token, body });
    expectError(refused, 401, 'UNAUTHORIZED');
    expect(refused.body.error.message).toBe('This project API token is unknown or has been revoked');
    expect((await entriesOf(owner.userId, path)).map((e) => e.term)).toEqual(['cart']);
  });

  it("when the member's account has been deleted and its UserDeleted not yet applied here, then an import answers 401 and nothing is stored", async () => {
    const { owner, member, path } = await projectWithMember();
    await addEntry(owner.userId, path, { term: 'cart', translations: { de: 'Warenkorb' } });
    // identity-service's part of the deletion alone: this service still lists the member.
    await service.db.query(`DELETE FROM identity.users WHERE user_id = $1`, [member.userId]);
    const refused = await service.call('PUT', path, {
      as: await service.as(member.userId),
      body: { entries: [{ term: 'checkout' }] },
    });
    expectError(refused, 401, 'UNAUTHORIZED');
    expect(refused.body.error.message).toBe('The account of this access token has been deleted');
    expect((await entriesOf(owner.userId, path)).map((e) => e.term)).toEqual(['cart']);
  });

  it('when a member has been removed, then an import answers 404 and nothing is stored', async () => {
    const { owner, member, project, path } = await projectWithMember();
    await addEntry(owner.userId, path, { term: 'cart', translations: { de: 'Warenkorb' } });
    const removed = await service.call(
      'DELETE',
      `/v1/projects/${project.projectId}/members/${member.userId}`,
      {
        as: await service.as(owner.userId),
      },
    );
    expect(removed.status).toBe(204);
    const refused = await service.call('PUT', path, {
      as: await service.as(member.userId),
      body: { entries: [{ term: 'checkout' }] },
    });
    expectError(refused, 404, 'NOT_FOUND');
    expect((await entriesOf(owner.userId, path)).map((e) => e.term)).toEqual(['cart']);
  });

  it("when another project's token reads, then 404", async () => {
    const { path } = await projectWithMember();
    const other = await projectWithMember();
    const response = await service.call('GET', path, {
      as: await service.asProjectToken(other.project.projectId),
    });
    expectError(response, 404, 'NOT_FOUND');
  });
});

describe('PATCH and DELETE /v1/projects/:projectId/glossary/:entryId', () => {
  it('when a member changes fields, then only those change and updatedAt moves', async () => {
    const { owner, member, path } = await projectWithMember();
    const entry = await addEntry(owner.userId, path, { term: 'cart', translations: { de: 'Warenkorb' } });

    const response = await service.call('PATCH', `${path}/${entry.entryId}`, {
      as: await service.as(member.userId),
      body: { term: 'Cart', caseSensitive: true, note: 'noun' },
    });

    expect(response.status).toBe(200);
    const changed = glossaryEntrySchema.parse(response.body);
    expect(changed).toStrictEqual({
      ...entry,
      term: 'Cart',
      caseSensitive: true,
      note: 'noun',
      updatedAt: expect.any(Number),
    });
    expect(changed.updatedAt).toBeGreaterThanOrEqual(entry.updatedAt);
    expect(await entriesOf(owner.userId, path)).toStrictEqual([changed]);
  });

  it('when keepAsIs is set on an entry with translations, then 400 saying how, and the entry stays', async () => {
    const { owner, path } = await projectWithMember();
    const entry = await addEntry(owner.userId, path, {
      term: 'Tolk',
      translations: { de: 'Tolk', fr: 'Tolk' },
    });

    const response = await service.call('PATCH', `${path}/${entry.entryId}`, {
      as: await service.as(owner.userId),
      body: { keepAsIs: true },
    });

    expectValidation(
      response,
      'body: keepAsIs cannot be true while the entry has translations (de, fr); send "translations": {} with it',
    );
    expect(await entriesOf(owner.userId, path)).toStrictEqual([entry]);
  });

  it('when the term is renamed to another entry’s, then 409; an empty patch is 400', async () => {
    const { owner, path } = await projectWithMember();
    await addEntry(owner.userId, path, { term: 'cart' });
    const basket = await addEntry(owner.userId, path, { term: 'basket' });
    const as = await service.as(owner.userId);

    expectError(
      await service.call('PATCH', `${path}/${basket.entryId}`, { as, body: { term: 'CART' } }),
      409,
      'CONFLICT',
    );
    expectValidation(
      await service.call('PATCH', `${path}/${basket.entryId}`, { as, body: {} }),
      'body: must contain at least one of term, caseSensitive, keepAsIs, note, translations',
    );
  });

  it('when an entry is deleted, then 204 and it is gone; again, then 404', async () => {
    const { owner, path } = await projectWithMember();
    const entry = await addEntry(owner.userId, path, { term: 'cart' });
    const as = await service.as(owner.userId);

    expect((await service.call('DELETE', `${path}/${entry.entryId}`, { as })).status).toBe(204);
    expect(await entriesOf(owner.userId, path)).toEqual([]);
    const again = await service.call('DELETE', `${path}/${entry.entryId}`, { as });
    expectError(again, 404, 'NOT_FOUND');
    expect(again.body.error.message).toBe('Glossary entry not found');
  });

  it('when the entry belongs to another project, then 404 and it stays', async () => {
    const one = await projectWithMember();
    const other = await projectWithMember();
    const entry = await addEntry(other.owner.userId, other.path, { term: 'cart' });

    const response = await service.call('DELETE', `${one.path}/${entry.entryId}`, {
      as: await service.as(one.owner.userId),
    });

    expectError(response, 404, 'NOT_FOUND');
    expect(await entriesOf(other.owner.userId, other.path)).toHaveLength(1);
  });

  it('when a token tries PATCH, then 403 (tokens only read and import)', async () => {
    const { owner, project, path } = await projectWithMember();
    const entry = await addEntry(owner.userId, path, { term: 'cart' });
    const response = await service.call('PATCH', `${path}/${entry.entryId}`, {
      as: await service.asProjectToken(project.projectId, 'read'),
      body: { note: 'x' },
    });
    expectError(response, 403, 'FORBIDDEN');
  });
});

describe('PUT /v1/projects/:projectId/glossary', () => {
  it('when entries are imported, then they replace the glossary; existing terms keep their ids', async () => {
    const { owner, path } = await projectWithMember();
    const cart = await addEntry(owner.userId, path, { term: 'cart', translations: { de: 'Korb' } });
    await addEntry(owner.userId, path, { term: 'basket' });
    const kept = await addEntry(owner.userId, path, { term: 'Tolk', keepAsIs: true });

    const response = await service.call('PUT', path, {
      as: await service.as(owner.userId),
      body: {
        entries: [
          { term: 'Cart', translations: { de: 'Warenkorb' } },
          { term: 'Tolk', keepAsIs: true },
          { term: 'checkout', note: 'the page' },
        ],
      },
    });

    expect(response.status).toBe(200);
    const result = replaceGlossaryResponseSchema.parse(response.body);
    expect({ ...result, entries: undefined }).toStrictEqual({
      entries: undefined,
      created: 1,
      updated: 1,
      unchanged: 1,
      deleted: 1,
    });
    expect(result.entries.map((e) => [e.term, e.entryId])).toEqual([
      ['Cart', cart.entryId],
      ['checkout', expect.stringMatching(/^gle_/)],
      ['Tolk', kept.entryId],
    ]);
    expect(result.entries[0]?.translations).toEqual({ de: 'Warenkorb' });
    expect(await entriesOf(owner.userId, path)).toStrictEqual(result.entries);
  });

  it('when merge=true, then entries left out stay and given ones replace theirs', async () => {
    const { owner, path } = await projectWithMember();
    await addEntry(owner.userId, path, { term: 'cart', translations: { de: 'Korb' } });
    await addEntry(owner.userId, path, { term: 'basket' });

    const response = await service.call('PUT', `${path}?merge=true`, {
      as: await service.as(owner.userId),
      body: { entries: [{ term: 'cart', translations: { de: 'Warenkorb' } }] },
    });

    expect(response.status).toBe(200);
    const result = replaceGlossaryResponseSchema.parse(response.body);
    expect([result.created, result.updated, result.deleted]).toEqual([0, 1, 0]);
    expect(result.entries.map((e) => [e.term, e.translations])).toEqual([
      ['basket', {}],
      ['cart', { de: 'Warenkorb' }],
    ]);
  });

  it('when an import has 10,000 entries, then all are stored; 10,001, then 400 and nothing changes', async () => {
    const { owner, path } = await projectWithMember();
    await addEntry(owner.userId, path, { term: 'existing' });
    const as = await service.as(owner.userId);
    const entries = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ term: `term ${i}`, translations: { de: `Begriff ${i}` } }));

    const tooMany = await service.call('PUT', path, { as, body: { entries: entries(10_001) } });
    expectValidation(
      tooMany,
      "body.entries: has 10,001 entries; a project's glossary holds at most 10,000 (nothing was imported)",
    );
    expect((await entriesOf(owner.userId, path)).map((e) => e.term)).toEqual(['existing']);

    const full = await service.call('PUT', path, { as, body: { entries: entries(10_000) } });
    expect(full.status).toBe(200);
    expect(full.body.created).toBe(10_000);
    expect(full.body.deleted).toBe(1);
    expect(await entriesOf(owner.userId, path)).toHaveLength(10_000);

    const oneMore = await service.call('POST', path, { as, body: { term: 'one more' } });
    expectError(oneMore, 409, 'CONFLICT');
    expect(oneMore.body.error.message).toBe(
      'The glossary has 10,000 entries, the most a project may have; delete one first',
    );
    const merged = await service.call('PUT', `${path}?merge=true`, {
      as,
      body: { entries: [{ term: 'one more' }] },
    });
    expectValidation(
      merged,
      "body.entries: merging 1 new terms into the glossary's 10,000 entries would make 10,001; a project's glossary holds at most 10,000 (nothing was imported)",
    );
    expect(await entriesOf(owner.userId, path)).toHaveLength(10_000);
  });

  it('when terms repeat in one import (ignoring case), then 400 naming them and nothing changes', async () => {
    const { owner, path } = await projectWithMember();
    await addEntry(owner.userId, path, { term: 'existing' });

    const response = await service.call('PUT', path, {
      as: await service.as(owner.userId),
      body: {
        entries: [
          { term: 'Cart' },
          { term: 'basket' },
          { term: 'cart ' },
          { term: 'BASKET' },
          { term: 'ok' },
        ],
      },
    });

    expectValidation(
      response,
      'body.entries: each term may appear once (terms are compared ignoring case); duplicated: "Cart" (entries 0, 2); "basket" (entries 1, 3)',
    );
    expect((await entriesOf(owner.userId, path)).map((e) => e.term)).toEqual(['existing']);
  });

  it('when some entries are bad, then 400 naming each by index (0 and 1,000-char terms) and nothing changes', async () => {
    const { owner, path } = await projectWithMember();
    await addEntry(owner.userId, path, { term: 'existing' });

    const response = await service.call('PUT', path, {
      as: await service.as(owner.userId),
      body: { entries: [{ term: 'fine' }, { term: '' }, { term: 'y'.repeat(1000) }, 'text'] },
    });

    expectValidation(
      response,
      'body.entries.1.term: must not be empty; body.entries.2.term: must be at most 200 characters (it has 1000); ' +
        'body.entries.3: must be a JSON object',
    );
    expect((await entriesOf(owner.userId, path)).map((e) => e.term)).toEqual(['existing']);
  });

  it('when thousands of entries are bad, then the message names the first 20 and counts the rest', async () => {
    const { owner, path } = await projectWithMember();
    const response = await service.call('PUT', path, {
      as: await service.as(owner.userId),
      body: { entries: Array.from({ length: 5000 }, () => ({ term: '' })) },
    });
    expectValidation(
      response,
      /^body\.entries\.0\.term: must not be empty; .*body\.entries\.19\.term: must not be empty; and 4,980 more problems$/,
    );
  });

  it.each([
    [undefined, 'body: a JSON body is required'],
    [[], 'body: must be a JSON object'],
    [{}, 'body.entries: is required'],
    [{ entries: {} }, 'body.entries: must be an array of entries'],
  ])('when the body is %j, then 400 %s', async (body, message) => {
    const { owner, path } = await projectWithMember();
    expectValidation(await service.call('PUT', path, { as: await service.as(owner.userId), body }), message);
  });

  it('when merge is not true or false, then 400 naming it', async () => {
    const { owner, path } = await projectWithMember();
    const response = await service.call('PUT', `${path}?merge=yes`, {
      as: await service.as(owner.userId),
      body: { entries: [] },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.message).toMatch(/merge/);
  });

  it('when the write fails midway, then nothing of the import is stored (one transaction)', async () => {
    const { owner, path } = await projectWithMember();
    const entry = await addEntry(owner.userId, path, { term: 'existing' });

    service.failNextTransactionAt(/INSERT INTO glossary_entries/);
    const response = await service.call('PUT', path, {
      as: await service.as(owner.userId),
      body: { entries: [{ term: 'new' }] },
    });

    expectError(response, 500, 'INTERNAL_ERROR');
    expect(await entriesOf(owner.userId, path)).toStrictEqual([entry]);
  });

  it('when the project is deleted, then its glossary goes with it', async () => {
    const { owner, project, path } = await projectWithMember();
    await addEntry(owner.userId, path, { term: 'cart' });
    const deleted = await service.call('DELETE', `/v1/projects/${project.projectId}`, {
      as: await service.as(owner.userId),
    });
    expect(deleted.status).toBe(204);
    const { rows } = await service.db.query(`SELECT 1 FROM glossary_entries WHERE project_id = $1`, [
      project.projectId,
    ]);
    expect(rows).toEqual([]);
  });
});
