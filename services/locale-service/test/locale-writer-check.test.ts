import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectError, realServers, whileRowsLocked } from '@tolk/testing';
import { startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterEach(() => {
  service.writers.setTrouble(undefined);
});
afterAll(async () => {
  await service?.close();
});

const newUserId = () => `usr_${randomUUID().replaceAll('-', '')}`;

/** A project with source version 1, German translations of it, and a member besides the owner. */
async function projectWithMember() {
  const project = await service.projectWithLocales(['de']);
  await service.putSource(project.projectId, project.owner, { greeting: 'Hello', farewell: 'Goodbye' });
  const memberId = newUserId();
  await service.addMember(project.ownerId, project.projectId, memberId);
  const member = await service.as(memberId);
  const first = await service.putTranslations(project.projectId, 'de', member, 1, { greeting: 'Hallo' });
  expect(first.status).toBe(200);
  return { ...project, memberId, member };
}

describe('writes to locales, their sender asked again before they commit', () => {
  it('when the member has been removed, then a translation upload answers 404 "Project not found" and the translations stay', async () => {
    const project = await projectWithMember();
    await service.removeMember(project.ownerId, project.projectId, project.memberId);
    const refused = await service.putTranslations(project.projectId, 'de', project.member, 1, {
      greeting: 'Moin',
      farewell: 'Tschüss',
    });
    expectError(refused, 404, 'NOT_FOUND');
    expect(refused.body.error.message).toBe('Project not found');
    expect(await service.download(project.projectId, 'de', project.owner)).toStrictEqual({
      greeting: 'Hallo',
    });
  });

  it('when the member has been removed, then adding or removing a locale answers 404 and changes nothing', async () => {
    const project = await projectWithMember();
    await service.removeMember(project.ownerId, project.projectId, project.memberId);
    const locales = `/v1/projects/${project.projectId}/locales`;
    expectError(
      await service.call('POST', locales, { as: project.member, body: { locale: 'fr' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await service.call('DELETE', `${locales}/de`, { as: project.member }), 404, 'NOT_FOUND');
    const listed = await service.call('GET', locales, { as: project.owner });
    expect(listed.body.locales.map((locale: { locale: string }) => locale.locale)).toEqual(['de']);
    expect(await service.download(project.projectId, 'de', project.owner)).toStrictEqual({
      greeting: 'Hallo',
    });
  });

  it("when the member's account has been deleted, or the token revoked, then 401 and the translations stay", async () => {
    const project = await projectWithMember();
    const token = await service.asProjectToken(project.projectId, 'read_write');
    service.writers.deleteAccount(project.memberId);
    service.writers.revokeTokensOf(project.projectId);
    for (const [as, message] of [
      [project.member, 'The account of this access token has been deleted'],
      [token, 'This project API token is unknown or has been revoked'],
    ] as const) {
      const refused = await service.putTranslations(project.projectId, 'de', as, 1, { greeting: 'Moin' });
      expectError(refused, 401, 'UNAUTHORIZED');
      expect(refused.body.error.message).toBe(message);
    }
    expect(await service.download(project.projectId, 'de', project.owner)).toStrictEqual({
      greeting: 'Hallo',
    });
  });

  it('when identity-service cannot be reached, then 503 SERVICE_UNAVAILABLE and the translations stay; reads still answer', async () => {
    const project = await projectWithMember();
    service.writers.setTrouble('down');
    const refused = await service.putTranslations(project.projectId, 'de', project.member, 1, {
      greeting: 'Moin',
    });
    expectError(refused, 503, 'SERVICE_UNAVAILABLE');
    expect(await service.download(project.projectId, 'de', project.member)).toStrictEqual({
      greeting: 'Hallo',
    });
    const locale = await service.call('GET', `/v1/projects/${project.projectId}/locales/de`, {
      as: project.member,
    });
    expect(locale.body).toMatchObject({ translatedCount: 1, missingCount: 1 });
  });

  // A connection of the test's own holds the project's baseline lock, as another upload would:
  // the member's upload, its body read and checked, waits for it while the owner removes them.
  it.skipIf(!realServers().postgres)(
    "when the member is removed while the upload waits for the project's lock, then 404 and the translations stay",
    async () => {
      const project = await projectWithMember();
      const refused = await whileRowsLocked(
        service.db,
        { sql: 'SELECT 1 FROM baselines WHERE project_id = $1 FOR UPDATE', params: [project.projectId] },
        () => service.putTranslations(project.projectId, 'de', project.member, 1, { greeting: 'Moin' }),
        { meanwhile: () => service.removeMember(project.ownerId, project.projectId, project.memberId) },
      );
      expectError(refused, 404, 'NOT_FOUND');
      expect(refused.body.error.message).toBe('Project not found');
      expect(await service.download(project.projectId, 'de', project.owner)).toStrictEqual({
        greeting: 'Hallo',
      });
    },
  );
});
