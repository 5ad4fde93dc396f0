import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_GLOSSARY_BYTES,
  glossaryEntryBytes,
  glossaryEntrySchema,
  glossaryPageSchema,
  glossaryResponseSchema,
  parseTargetLocale,
  replaceGlossaryResponseSchema,
  type GlossaryEntry,
  type GlossaryPage,
} from '@tolk/contracts';
import { request } from '@tolk/testing';
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

async function pageOf(userId: string, path: string, query: string): Promise<GlossaryPage> {
  const response = await service.call('GET', `${path}?${query}`, { as: await service.as(userId) });
  expect(response.status, response.text).toBe(200);
  return glossaryPageSchema.parse(response.body);
}

/** What the glossary holds, as a page tells it. */
async function sizeOf(userId: string, path: string): Promise<{ entries: number; bytes: number }> {
  const { total, bytes } = await pageOf(userId, path, 'limit=1');
  return { entries: total, bytes };
}

/** The bytes entries count towards the bound, as sent (before defaults). */
function bytesOf(
  ...entries: { term: string; note?: string | null; translations?: Record<string, string> }[]
) {
  return entries.reduce(
    (sum, { term, note, translations }) =>
      sum + glossaryEntryBytes({ term, note: note ?? null, translations: translations ?? {} }),
    0,
  );
}

/** 200 locale codes, each its own canonical form: an entry can have renderings for all of them. */
const LOCALES: string[] = [];
for (const a of 'abcdefghijklmnopqrstuvwxyz') {
  for (const b of 'abcdefghijklmnopqrstuvwxyz') {
    const parsed = parseTargetLocale(a + b);
    if (LOCALES.length < 200 && parsed.ok && parsed.locale === a + b) LOCALES.push(a + b);
  }
}

/** An entry with every field at its cap but the term: 200 renderings of 1,000 characters (200 kB). */
function bigEntry(term: string) {
  return { term, translations: Object.fromEntries(LOCALES.map((locale) => [locale, 'x'.repeat(1000)])) };
}

/** The 413 of a write past the bound, with what the glossary held and what the write would make. */
function expectTooLarge(
  response: Response,
  before: { entries: number; bytes: number },
  after: { entries: number; bytes: number },
  subject: 'this entry' | 'this change' | 'this import',
): void {
  expectError(response, 413, 'PAYLOAD_TOO_LARGE');
  const count = (n: number) => n.toLocaleString('en-US');
  const change = (n: number) => (n < 0 ? `−${count(-n)}` : `+${count(n)}`);
  const entries = (n: number) => `${count(n)} entr${n === 1 ? 'y' : 'ies'}`;
  expect(response.body.error.message).toBe(
    "A project's glossary holds at most 10,000 entries and 4,194,304 bytes of text (terms, notes, " +
      `locale codes and renderings in UTF-8); it holds ${entries(before.entries)} and ${count(before.bytes)} ` +
      `bytes, and ${subject} would make that ${entries(after.entries)} (${change(after.entries - before.entries)}) ` +
      `and ${count(after.bytes)} bytes (${change(after.bytes - before.bytes)}). ` +
      `Nothing was ${subject === 'this import' ? 'imported' : 'stored'}.`,
  );
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
    const entries = await entriesOf(owner.userId, path);
    expect(replaceGlossaryResponseSchema.parse(response.body)).toStrictEqual({
      created: 1,
      updated: 1,
      unchanged: 1,
      deleted: 1,
      total: 3,
      bytes: entries.reduce((sum, entry) => sum + glossaryEntryBytes(entry), 0),
    });
    expect(entries.map((e) => [e.term, e.entryId])).toEqual([
      ['Cart', cart.entryId],
      ['checkout', expect.stringMatching(/^gle_/)],
      ['Tolk', kept.entryId],
    ]);
    expect(entries[0]?.translations).toEqual({ de: 'Warenkorb' });
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
    expect([result.created, result.updated, result.deleted, result.total]).toEqual([0, 1, 0, 2]);
    expect((await entriesOf(owner.userId, path)).map((e) => [e.term, e.translations])).toEqual([
      ['basket', {}],
      ['cart', { de: 'Warenkorb' }],
    ]);
  });

  it('when an import has 10,000 entries, then all are stored; 10,001, then 400; one more entry or a merge past 10,000, then 413 and nothing changes', async () => {
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

    const atBound = { entries: 10_000, bytes: bytesOf(...entries(10_000)) };
    const oneMore = await service.call('POST', path, { as, body: { term: 'one more' } });
    expectTooLarge(oneMore, atBound, { entries: 10_001, bytes: atBound.bytes + 8 }, 'this entry');
    // An entry of the merge changes one already there: only the new term counts as an entry more.
    const merge = [{ term: 'one more' }, { term: 'term 7', note: 'n' }];
    const merged = await service.call('PUT', `${path}?merge=true`, { as, body: { entries: merge } });
    const afterMerge = atBound.bytes - bytesOf(entries(10_000)[7]!) + bytesOf(...merge);
    expectTooLarge(merged, atBound, { entries: 10_001, bytes: afterMerge }, 'this import');
    expect(await sizeOf(owner.userId, path)).toEqual(atBound);
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

describe('the bound of a glossary: 10,000 entries and 4 MiB of text', () => {
  it('when an import holds more than 4 MiB of text, then 413 naming the bound, what the glossary holds and what it would make, and nothing is stored', async () => {
    const { owner, path } = await projectWithMember();
    await addEntry(owner.userId, path, { term: 'existing' });
    const entries = Array.from({ length: 21 }, (_, i) => bigEntry(`big ${i}`));
    expect(bytesOf(...entries)).toBeGreaterThan(MAX_GLOSSARY_BYTES);

    const response = await service.call('PUT', path, {
      as: await service.as(owner.userId),
      body: { entries },
    });

    expectTooLarge(
      response,
      { entries: 1, bytes: 8 },
      { entries: 21, bytes: bytesOf(...entries) },
      'this import',
    );
    expect((await entriesOf(owner.userId, path)).map((e) => e.term)).toEqual(['existing']);
  });

  it('when the glossary is near its bound in bytes, then an entry, a change or a merge past it is 413 and stores nothing; one that fits is stored', async () => {
    const { owner, path } = await projectWithMember();
    const as = await service.as(owner.userId);
    const big = Array.from({ length: 20 }, (_, i) => bigEntry(`big ${String(i).padStart(2, '0')}`));
    const filled = await service.call('PUT', path, { as, body: { entries: big } });
    expect(filled.status).toBe(200);
    const held = { entries: 20, bytes: bytesOf(...big) };
    expect(filled.body).toStrictEqual({
      created: 20,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      total: 20,
      bytes: held.bytes,
    });
    const one = bigEntry('one more');

    expectTooLarge(
      await service.call('POST', path, { as, body: one }),
      held,
      { entries: 21, bytes: held.bytes + bytesOf(one) },
      'this entry',
    );
    expectTooLarge(
      await service.call('PUT', `${path}?merge=true`, { as, body: { entries: [one] } }),
      held,
      { entries: 21, bytes: held.bytes + bytesOf(one) },
      'this import',
    );
    const small = await addEntry(owner.userId, path, { term: 'small', translations: { de: 'klein' } });
    const withSmall = { entries: 21, bytes: held.bytes + bytesOf(small) };
    expectTooLarge(
      await service.call('PATCH', `${path}/${small.entryId}`, {
        as,
        body: { translations: one.translations },
      }),
      withSmall,
      { entries: 21, bytes: withSmall.bytes - bytesOf(small) + bytesOf({ ...one, term: 'small' }) },
      'this change',
    );
    expect(await sizeOf(owner.userId, path)).toEqual(withSmall);
    // Smaller is always allowed, and a replace that stays within the bound.
    const shrunk = await service.call('PATCH', `${path}/${small.entryId}`, {
      as,
      body: { translations: {} },
    });
    expect(shrunk.status).toBe(200);
    const replaced = await service.call('PUT', path, { as, body: { entries: [...big.slice(1), one] } });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ created: 1, unchanged: 19, deleted: 2, total: 20 });
  });

  it('when writes that each fit but not together run at once, then only as many as fit are stored (the project lock)', async () => {
    const { owner, member, path } = await projectWithMember();
    const filled = await service.call('PUT', path, {
      as: await service.as(owner.userId),
      body: { entries: Array.from({ length: 19 }, (_, i) => bigEntry(`big ${i}`)) },
    });
    expect(filled.status).toBe(200);
    // Room for one more 200 kB entry, not two.
    expect(MAX_GLOSSARY_BYTES - filled.body.bytes).toBeLessThan(2 * bytesOf(bigEntry('extra 0')));

    const responses = await Promise.all(
      [owner, member, owner, member].map(async (caller, i) => {
        const as = await service.as(caller.userId);
        const entry = bigEntry(`extra ${i}`);
        return i % 2 === 0
          ? service.call('POST', path, { as, body: entry })
          : service.call('PUT', `${path}?merge=true`, { as, body: { entries: [entry] } });
      }),
    );

    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((status) => status === 413)).toHaveLength(3);
    expect(statuses.filter((status) => status === 200 || status === 201)).toHaveLength(1);
    const size = await sizeOf(owner.userId, path);
    expect(size.entries).toBe(20);
    expect(size.bytes).toBeLessThanOrEqual(MAX_GLOSSARY_BYTES);
  });

  it('when an import of 4 MiB of text is stored, then 200 with counts only, not the glossary', async () => {
    const { owner, path } = await projectWithMember();
    await addEntry(owner.userId, path, { term: 'existing' });
    const entries = Array.from({ length: 20 }, (_, i) => bigEntry(`big ${i}`));

    const response = await service.call('PUT', `${path}?merge=true`, {
      as: await service.as(owner.userId),
      body: { entries },
    });

    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual({
      created: 20,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      total: 21,
      bytes: 8 + bytesOf(...entries),
    });
    expect(response.text.length).toBeLessThan(200);
    expect(await sizeOf(owner.userId, path)).toEqual({ entries: 21, bytes: 8 + bytesOf(...entries) });
  });

  it('when an import carries more than 250,000 renderings or names more than 1,000 locale codes, then 413 before any entry is checked, and nothing is stored', async () => {
    const { owner, path } = await projectWithMember();
    const as = await service.as(owner.userId);
    const renderings = Object.fromEntries(LOCALES.map((locale) => [locale, 'x']));
    const many = Array.from({ length: 1251 }, (_, i) => ({ term: `t${i}`, translations: renderings }));

    const tooMany = await service.call('PUT', path, { as, body: { entries: many } });
    expectError(tooMany, 413, 'PAYLOAD_TOO_LARGE');
    expect(tooMany.body.error.message).toBe(
      'body.entries: holds more than 250,000 renderings, the most one import carries (nothing was imported)',
    );
    // Not locale codes at all: the count is what is refused, before any code is read.
    const named = Array.from({ length: 1001 }, (_, i) => ({
      term: `t${i}`,
      translations: { [`l${i}`]: 'x' },
    }));
    const tooVaried = await service.call('PUT', `${path}?merge=true`, { as, body: { entries: named } });
    expectError(tooVaried, 413, 'PAYLOAD_TOO_LARGE');
    expect(tooVaried.body.error.message).toBe(
      'body.entries: names more than 1,000 different locale codes, the most one import names (nothing was imported)',
    );
    // Four times as many: refused by counting the body's names before it is parsed.
    const huge = Array.from({ length: 4000 }, (_, i) => ({ term: `t${i}`, translations: renderings }));
    const tooBig = await service.call('PUT', path, { as, body: { entries: huge } });
    expectError(tooBig, 413, 'PAYLOAD_TOO_LARGE');
    expect(tooBig.body.error.message).toBe(
      'body: holds 808,001 names with values; an import holds at most 350,001: its entries, 10 fields ' +
        'for each of 10,000 entries and 250,000 renderings (nothing was imported)',
    );
    expect(await entriesOf(owner.userId, path)).toEqual([]);
    const atTheLimit = await service.call('PUT', path, { as, body: { entries: many.slice(1) } });
    expect(atTheLimit.status).toBe(200);
  });

  it('when an entry has more than 200 locales, then 400 counting them, as an entry, a change or in an import', async () => {
    const { owner, path } = await projectWithMember();
    const as = await service.as(owner.userId);
    const entry = await addEntry(owner.userId, path, { term: 'cart' });
    const locales = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x${i}`, 'y']));

    expectValidation(
      await service.call('POST', path, { as, body: { term: 'basket', translations: locales(50_000) } }),
      'body.translations: must have at most 200 locales (it has 50,000)',
    );
    expectValidation(
      await service.call('PATCH', `${path}/${entry.entryId}`, { as, body: { translations: locales(201) } }),
      'body.translations: must have at most 200 locales (it has 201)',
    );
    expectValidation(
      await service.call('PUT', path, {
        as,
        body: { entries: [{ term: 'ok' }, { term: 'basket', translations: locales(1000) }] },
      }),
      'body.entries.1.translations: must have at most 200 locales (it has 1,000)',
    );
    expect(await entriesOf(owner.userId, path)).toStrictEqual([entry]);
  });

  it('when a body is over its limit (8 MiB for an import, 1 MiB for one entry), then 413 naming the limit', async () => {
    const { owner, path } = await projectWithMember();
    const as = await service.as(owner.userId);
    const entry = { term: 'cart', translations: { de: 'Warenkorb' } };
    const send = (method: string, body: Record<string, unknown>) =>
      request(`${service.url}${path}`, {
        method,
        headers: { ...as, 'content-type': 'application/json' },
        rawBody: JSON.stringify(body),
      });

    const entryPastItsLimit = await send('POST', { ...entry, padding: ' '.repeat(1024 * 1024) });
    expectError(entryPastItsLimit, 413, 'PAYLOAD_TOO_LARGE');
    expect(entryPastItsLimit.body.error.message).toBe('Request body exceeds the limit of 1048576 bytes');
    const importPastItsLimit = await send('PUT', { entries: [entry], padding: ' '.repeat(8 * 1024 * 1024) });
    expectError(importPastItsLimit, 413, 'PAYLOAD_TOO_LARGE');
    expect(importPastItsLimit.body.error.message).toBe('Request body exceeds the limit of 8388608 bytes');
    expect(await entriesOf(owner.userId, path)).toEqual([]);
    // A body of several MiB is within an import's limit.
    const big = await send('PUT', { entries: [entry], padding: ' '.repeat(5 * 1024 * 1024) });
    expect(big.status).toBe(200);
  });
});

describe('GET /v1/projects/:projectId/glossary, a page at a time', () => {
  it('when read with limit, then pages in term order, each with the total, the bytes and the cursor of the next', async () => {
    const { owner, path } = await projectWithMember();
    const terms = ['echo', 'Alpha', 'delta', 'charlie', 'Bravo'];
    const imported = await service.call('PUT', path, {
      as: await service.as(owner.userId),
      body: { entries: terms.map((term) => ({ term, translations: { de: term.toUpperCase() } })) },
    });
    expect(imported.status).toBe(200);
    const bytes = bytesOf(...terms.map((term) => ({ term, translations: { de: term.toUpperCase() } })));

    const first = await pageOf(owner.userId, path, 'limit=2');
    expect(first.entries.map((e) => e.term)).toEqual(['Alpha', 'Bravo']);
    expect({ ...first, entries: undefined }).toStrictEqual({
      entries: undefined,
      total: 5,
      bytes,
      nextCursor: expect.any(String),
    });
    const second = await pageOf(owner.userId, path, `limit=2&cursor=${first.nextCursor!}`);
    expect(second.entries.map((e) => e.term)).toEqual(['charlie', 'delta']);
    const last = await pageOf(owner.userId, path, `limit=2&cursor=${second.nextCursor!}`);
    expect(last.entries.map((e) => e.term)).toEqual(['echo']);
    expect(last.nextCursor).toBeNull();
    expect([...first.entries, ...second.entries, ...last.entries]).toStrictEqual(
      await entriesOf(owner.userId, path),
    );
  });

  it('when an entry is added or deleted between pages, then the next page goes on after the last term read', async () => {
    const { owner, path } = await projectWithMember();
    const as = await service.as(owner.userId);
    for (const term of ['a', 'c', 'e', 'g']) await addEntry(owner.userId, path, { term });
    const first = await pageOf(owner.userId, path, 'limit=2');
    expect(first.entries.map((e) => e.term)).toEqual(['a', 'c']);
    await addEntry(owner.userId, path, { term: 'b' });
    expect((await service.call('DELETE', `${path}/${first.entries[1]!.entryId}`, { as })).status).toBe(204);

    const rest = await pageOf(owner.userId, path, `limit=10&cursor=${first.nextCursor!}`);

    expect(rest.entries.map((e) => e.term)).toEqual(['e', 'g']);
    expect(rest.total).toBe(4);
  });

  it('when limit is left out of a paged read, then a page holds 100; a page ends before 512 KiB of text, but holds one entry at least', async () => {
    const { owner, path } = await projectWithMember();
    const as = await service.as(owner.userId);
    const many = Array.from({ length: 150 }, (_, i) => ({ term: `term ${String(i).padStart(3, '0')}` }));
    expect((await service.call('PUT', path, { as, body: { entries: many } })).status).toBe(200);
    const start = await pageOf(owner.userId, path, 'limit=1');
    expect((await pageOf(owner.userId, path, `cursor=${start.nextCursor!}`)).entries).toHaveLength(100);

    const big = ['a', 'b', 'c', 'd', 'e'].map((term) => bigEntry(term));
    expect((await service.call('PUT', path, { as, body: { entries: big } })).status).toBe(200);
    const pages: string[][] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: GlossaryPage = await pageOf(
        owner.userId,
        path,
        `limit=1000${cursor ? `&cursor=${cursor}` : ''}`,
      );
      pages.push(page.entries.map((e) => e.term));
      cursor = page.nextCursor;
    }
    // 200 kB each: two fit in 512 KiB, a third would not.
    expect(pages).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('when read without limit and cursor, then every entry and nothing else, as before pages (more than a page of 1,000)', async () => {
    const { owner, project, path } = await projectWithMember();
    const entries = Array.from({ length: 1500 }, (_, i) => ({ term: `term ${String(i).padStart(4, '0')}` }));
    expect(
      (await service.call('PUT', path, { as: await service.as(owner.userId), body: { entries } })).status,
    ).toBe(200);

    for (const as of [await service.as(owner.userId), await service.asProjectToken(project.projectId)]) {
      const response = await service.call('GET', path, { as });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body)).toEqual(['entries']);
      expect(glossaryResponseSchema.parse(response.body).entries.map((e) => e.term)).toEqual(
        entries.map((e) => e.term),
      );
    }
  });

  it.each([
    ['limit=0', 'query.limit: must be a whole number from 1 to 1000'],
    ['limit=1001', 'query.limit: must be a whole number from 1 to 1000'],
    ['limit=ten', 'query.limit: must be a whole number from 1 to 1000'],
    ['cursor=!!', 'query.cursor: must be the nextCursor of an earlier page'],
    ['cursor=AA', 'query.cursor: must be the nextCursor of an earlier page'],
    [`cursor=${'a'.repeat(2001)}`, 'query.cursor: must be the nextCursor of an earlier page'],
  ])('when the query is %s, then 400 %s', async (query, message) => {
    const { owner, path } = await projectWithMember();
    const response = await service.call('GET', `${path}?${query}`, { as: await service.as(owner.userId) });
    expectValidation(response, message);
  });
});
