import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  INTERNAL_CALLER_HEADER,
  carryOverResponseSchema,
  sourceEventDataSchemas,
  versionListResponseSchema,
} from '@tolk/contracts';
import { createInternalCallerSigner } from '@tolk/http';
import { decodeSourceVersion } from '@tolk/locale-file';
import { settled } from '@tolk/testing';
import { INTERNAL_SECRET, startSourceService, type SourceService } from './source-harness.js';

let service: SourceService;
beforeAll(async () => {
  service = await startSourceService();
});
afterAll(async () => {
  await service?.close();
});

const signCaller = createInternalCallerSigner(INTERNAL_SECRET, 'locale-service');

async function internal(path: string) {
  return fetch(`${service.url}/internal/projects/${path}`, {
    headers: { [INTERNAL_CALLER_HEADER]: await signCaller() },
  });
}

/** Each key's revision in the project's current version. */
async function revisions(projectId: string): Promise<Record<string, number>> {
  const response = await internal(`${projectId}/source/versions/current`);
  const source = await decodeSourceVersion(Buffer.from(await response.arrayBuffer()));
  return Object.fromEntries(source.keys.map((key, i) => [key, source.revisions[i]!]));
}

async function put(projectId: string, as: Record<string, string>, body: unknown, query = '') {
  const response = await service.call('PUT', `/v1/projects/${projectId}/source${query}`, { as, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { version: number; diff: unknown; needsTranslation: boolean };
}

/** The translation baseline as locale-service would announce it. */
async function baselineAt(projectId: string, version: number, sequence: number) {
  const event = await service.publish('TranslationBaselineChanged', {
    projectId,
    baselineVersion: version,
    sequence,
  });
  await vi.waitFor(async () => expect(await service.processed(event.id)).toBe(true), settled);
}

async function sourceChanged(projectId: string) {
  const rows = await service.outboxRows(projectId);
  return rows.map((row) => sourceEventDataSchemas.SourceChanged.parse(row.payload.data));
}

describe('renames (DESIGN §13)', () => {
  it('when a key is deleted and another added with the same value and context, then a rename: old revision, raw diff, not pending, named in the event and the history', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { cart: { pay: 'Pay', '@pay': { description: 'Button' } }, title: 'Shop' });
    await baselineAt(projectId, 1, 1);
    const answer = await put(projectId, owner, {
      checkout: { pay: 'Pay', '@pay': { description: 'Button' } },
      title: 'Shop',
    });
    expect(answer).toStrictEqual({
      version: 2,
      diff: { added: ['checkout.pay'], modified: [], deleted: ['cart.pay'] },
      keyCount: 2,
      needsTranslation: false,
    });
    expect(await revisions(projectId)).toStrictEqual({ 'checkout.pay': 1, title: 1 });

    const current = await service.call('GET', `/v1/projects/${projectId}/source`, { as: owner });
    expect(current.body.pendingDiff).toStrictEqual({ added: [], modified: [], deleted: ['cart.pay'] });

    expect((await sourceChanged(projectId))[1]).toStrictEqual({
      projectId,
      version: 2,
      previousVersion: 1,
      keyCount: 2,
      added: 1,
      modified: 0,
      deleted: 1,
      renamed: 1,
      restored: 0,
      renames: [{ from: 'cart.pay', to: 'checkout.pay' }],
      restores: [],
    });

    const history = await service.call('GET', `/v1/projects/${projectId}/source/versions`, { as: owner });
    const [v2, v1] = versionListResponseSchema.parse(history.body).versions;
    expect(v2).toMatchObject({
      version: 2,
      renamed: 1,
      restored: 0,
      renames: [{ from: 'cart.pay', to: 'checkout.pay' }],
      restores: [],
    });
    expect(v1).toMatchObject({ version: 1, renamed: 0, renames: [], restores: [] });
  });

  it('when the context differs, or the value, then no rename: the new key is added and pending', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { a: 'Pay', '@a': { description: 'Button' }, b: 'Go' });
    await baselineAt(projectId, 1, 1);
    const answer = await put(projectId, owner, { x: 'Pay', '@x': { description: 'Link' }, y: 'Go!' });
    expect(answer.needsTranslation).toBe(true);
    expect(await revisions(projectId)).toStrictEqual({ x: 2, y: 2 });
    expect((await sourceChanged(projectId))[1]).toMatchObject({ renamed: 0, renames: [] });
  });

  it('when two deleted and two added keys share a value, then they pair in document order and the rest is added', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { a1: 'OK', k: 'K', a2: 'OK', a3: 'OK' });
    const answer = await put(projectId, owner, { k: 'K', b2: 'OK', b1: 'OK' });
    expect(answer.diff).toStrictEqual({ added: ['b2', 'b1'], modified: [], deleted: ['a1', 'a2', 'a3'] });
    expect((await sourceChanged(projectId))[1]?.renames).toStrictEqual([
      { from: 'a1', to: 'b2' },
      { from: 'a2', to: 'b1' },
    ]);

    const more = await service.createProject();
    await put(more.projectId, more.owner, { a: 'OK' });
    await put(more.projectId, more.owner, { b: 'OK', c: 'OK' });
    expect((await sourceChanged(more.projectId))[1]?.renames).toStrictEqual([{ from: 'a', to: 'b' }]);
    expect(await revisions(more.projectId)).toStrictEqual({ b: 1, c: 2 });
  });
});

describe('restores (DESIGN §13)', () => {
  it('when a deleted key is added again with its value and context, then it gets its revision back and is named; with another value it does not', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { a: 'A', b: 'B', c: 'C' });
    await put(projectId, owner, { a: 'A', b: 'B2', c: 'C' });
    await put(projectId, owner, { a: 'A' });
    await put(projectId, owner, { a: 'A', b: 'B2', c: 'C changed' });
    expect(await revisions(projectId)).toStrictEqual({ a: 1, b: 2, c: 4 });
    expect((await sourceChanged(projectId))[3]).toMatchObject({
      restored: 1,
      restores: [{ key: 'b', version: 2 }],
      renamed: 0,
    });
    const carried = await internal(`${projectId}/source/carry-overs?after=0&through=4`);
    expect(carryOverResponseSchema.parse(await carried.json())).toStrictEqual({
      versions: [{ version: 4, renames: [], restores: [{ key: 'b', version: 2 }] }],
    });
  });

  it('when one upload renames a key and restores another, then both are carried over', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { a: 'A', b: 'B', c: 'C' });
    await put(projectId, owner, { a: 'A', c: 'C' });
    await put(projectId, owner, { a: 'A', c: 'C2' });
    await put(projectId, owner, { aa: 'A', b: 'B', c: 'C2' });
    expect(await revisions(projectId)).toStrictEqual({ aa: 1, b: 1, c: 3 });
    expect((await sourceChanged(projectId))[3]).toMatchObject({
      renames: [{ from: 'a', to: 'aa' }],
      restores: [{ key: 'b', version: 1 }],
    });
  });

  it('when the carry-over range is not two versions, then the envelope names the parameter', async () => {
    const { projectId } = await service.createProject();
    const response = await internal(`${projectId}/source/carry-overs?after=x&through=2`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.message).toMatch(/^query\.after: /);
  });
});

describe('context is content (DESIGN §13)', () => {
  it('when only a description changes, then a new version whose key has a new revision and is pending as modified; the diff stays empty', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { a: 'Save', '@a': { description: 'Button' }, b: 'B' });
    await baselineAt(projectId, 1, 1);
    const answer = await put(projectId, owner, { a: 'Save', '@a': { description: 'Menu item' }, b: 'B' });
    expect(answer).toMatchObject({
      version: 2,
      diff: { added: [], modified: [], deleted: [] },
      needsTranslation: true,
    });
    expect(await revisions(projectId)).toStrictEqual({ a: 2, b: 1 });
    const current = await service.call('GET', `/v1/projects/${projectId}/source`, { as: owner });
    expect(current.body.pendingDiff).toStrictEqual({ added: [], modified: ['a'], deleted: [] });
    await put(projectId, owner, { a: 'Save', '@a': { description: 'Menu item', maxLength: 9 }, b: 'B' });
    expect(await revisions(projectId)).toStrictEqual({ a: 3, b: 1 });
  });

  it('when a group’s description changes, then every key in the group gets a new revision and keys beside it keep theirs', async () => {
    const { projectId, owner } = await service.createProject();
    const source = (note: string) => ({
      checkout: { pay: 'Pay', total: { label: 'Total' }, '@total': { description: 'Sum' } },
      '@checkout': { description: note },
      checkoutBanner: 'Sale',
      cart: { pay: 'Pay' },
    });
    await put(projectId, owner, source('The payment page'));
    await put(projectId, owner, source('The payment page of the app'));
    expect(await revisions(projectId)).toStrictEqual({
      'checkout.pay': 2,
      'checkout.total.label': 2,
      checkoutBanner: 1,
      'cart.pay': 1,
    });
  });

  it('when a key is deleted with its description, then the keys under its path keep their revisions: it annotated that key, no group', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { 'a.b': 'Save', '@a.b': { description: 'Button' }, 'a.b.c': 'Done' });
    await put(projectId, owner, { 'a.b.c': 'Done' });
    expect(await revisions(projectId)).toStrictEqual({ 'a.b.c': 1 });
  });

  it('when the project turns outdateOnContextChange off, then a changed description keeps the revision and a rename ignores context', async () => {
    const { projectId, owner, ownerId } = await service.createProject();
    await service.patchProject(ownerId, projectId, { settings: { outdateOnContextChange: false } });
    await vi.waitFor(async () => {
      const { rows } = await service.db.query<{ outdate_on_context_change: boolean }>(
        `SELECT outdate_on_context_change FROM projects WHERE project_id = $1`,
        [projectId],
      );
      expect(rows[0]?.outdate_on_context_change, 'ProjectUpdated applied').toBe(false);
    }, settled);
    await put(projectId, owner, { a: 'Save', '@a': { description: 'Button' }, b: 'B' });
    await put(projectId, owner, { a: 'Save', '@a': { description: 'Menu item' }, b: 'B' });
    expect(await revisions(projectId)).toStrictEqual({ a: 1, b: 1 });
    await put(projectId, owner, { z: 'Save', '@z': { description: 'Other' }, b: 'B' });
    expect(await revisions(projectId)).toStrictEqual({ z: 1, b: 1 });
  });

  it('when a dry run renames a key, then it answers as the upload would and stores nothing', async () => {
    const { projectId, owner } = await service.createProject();
    await put(projectId, owner, { a: 'A' });
    await baselineAt(projectId, 1, 1);
    const answer = await put(projectId, owner, { b: 'A' }, '?dryRun=true');
    expect(answer).toStrictEqual({
      version: 2,
      diff: { added: ['b'], modified: [], deleted: ['a'] },
      keyCount: 1,
      needsTranslation: false,
    });
    expect(await revisions(projectId)).toStrictEqual({ a: 1 });
  });
});
