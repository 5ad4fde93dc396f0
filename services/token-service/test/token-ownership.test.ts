/**
 * Who owns a project API token: the member who created it. Removing that member from the project
 * (or the member leaving) revokes the tokens they created there; deleting their account revokes
 * every token they created. Each revocation is announced with TokenRevoked, as a revocation by
 * hand is, so the gateway stops accepting the token within a second.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { realServers, revokeWhileWriteCommits, settled } from '@tolk/testing';
import { TOKEN_INTROSPECTION_PATH, hashProjectToken, writeRightLock } from '@tolk/contracts';
import { startTokenService, type CreatedToken, type TokenService } from './token-harness.js';

let service: TokenService;
beforeAll(async () => {
  service = await startTokenService();
});
afterAll(async () => {
  await service?.close();
});

function newUserId(): string {
  return `usr_${randomUUID().replaceAll('-', '')}`;
}

async function isLive(token: CreatedToken): Promise<boolean> {
  const answer = await service.internal(TOKEN_INTROSPECTION_PATH, {
    tokenHash: hashProjectToken(token.token),
  });
  return answer.status === 200;
}

/** The TokenRevoked events published for these tokens, once there is one for each. */
function revocationsOf(tokens: CreatedToken[]) {
  return vi.waitFor(async () => {
    const found = service.published.filter((event) =>
      tokens.some((token) => event.data['tokenId'] === token.tokenId),
    );
    expect(found.length, `TokenRevoked for ${tokens.length} tokens`).toBeGreaterThanOrEqual(tokens.length);
    return found;
  }, settled);
}

describe('GET /v1/projects/:projectId/tokens', () => {
  it('when tokens are listed, then each names the member who created it', async () => {
    const project = await service.createProject();
    const memberId = newUserId();
    await service.addMember(project.ownerId, project.projectId, memberId);
    const byOwner = await service.createToken(project.projectId, project.owner);
    const byMember = await service.createToken(project.projectId, await service.as(memberId));

    const { tokens } = await service.listTokens(project.projectId, project.owner);
    expect(tokens.map((token) => [token.tokenId, token.createdBy])).toEqual([
      [byMember.tokenId, { userId: memberId }],
      [byOwner.tokenId, { userId: project.ownerId }],
    ]);
  });
});

describe('ProjectMembershipChanged', () => {
  it('when a member is removed, then every live token they created in that project is revoked and announced, and no other', async () => {
    const project = await service.createProject();
    const otherProject = await service.createProject();
    const memberId = newUserId();
    await service.addMember(project.ownerId, project.projectId, memberId);
    await service.addMember(otherProject.ownerId, otherProject.projectId, memberId);
    const member = await service.as(memberId);
    const theirs = [
      await service.createToken(project.projectId, member, { label: 'CI', permissions: 'read_write' }),
      await service.createToken(project.projectId, member, { label: 'docs', permissions: 'read' }),
    ];
    const ownersToken = await service.createToken(project.projectId, project.owner);
    const theirsElsewhere = await service.createToken(otherProject.projectId, member);

    const event = await service.publish('ProjectMembershipChanged', {
      projectId: project.projectId,
      userId: memberId,
      change: 'removed',
    });

    const published = await revocationsOf(theirs);
    expect(
      published.map((e) => e.data).sort((a, b) => String(a['tokenId']).localeCompare(String(b['tokenId']))),
    ).toStrictEqual(
      theirs
        .map((token) => ({
          tokenId: token.tokenId,
          projectId: project.projectId,
          tokenHash: hashProjectToken(token.token),
        }))
        .sort((a, b) => a.tokenId.localeCompare(b.tokenId)),
    );
    for (const token of theirs) expect(await isLive(token)).toBe(false);
    expect(await isLive(ownersToken)).toBe(true);
    expect(await isLive(theirsElsewhere)).toBe(true);
    const { tokens } = await service.listTokens(project.projectId, project.owner);
    expect(tokens.map((token) => token.tokenId)).toEqual([ownersToken.tokenId]);

    // A redelivery applies nothing twice.
    await service.publish('ProjectMembershipChanged', event.data, { id: event.id });
    await expect
      .poll(async () => service.consumed(event.id), { ...settled, message: 'the duplicate consumed' })
      .toHaveLength(2);
    expect(service.consumed(event.id)).toEqual([true, false]);
    const outbox = await service.outboxRows(project.projectId);
    expect(outbox.filter((row) => row.type === 'TokenRevoked')).toHaveLength(2);
  });

  // A write of the token's in another service, having asked whether it is live, holds the
  // token's lock until it commits; here a transaction of the test's own stands for it.
  it.skipIf(!realServers().postgres)(
    "when a write of one of the member's tokens holds its right to write, then its revocation waits for it to commit",
    async () => {
      const project = await service.createProject();
      const memberId = newUserId();
      await service.addMember(project.ownerId, project.projectId, memberId);
      const token = await service.createToken(project.projectId, await service.as(memberId));
      await revokeWhileWriteCommits(service.db, writeRightLock.token(token.tokenId), async () => {
        await service.publish('ProjectMembershipChanged', {
          projectId: project.projectId,
          userId: memberId,
          change: 'removed',
        });
        await revocationsOf([token]);
      });
      expect(await isLive(token)).toBe(false);
    },
  );

  it('when a member is added or given another role, then their tokens stay', async () => {
    const project = await service.createProject();
    const memberId = newUserId();
    await service.addMember(project.ownerId, project.projectId, memberId);
    const token = await service.createToken(project.projectId, await service.as(memberId));

    const added = await service.publish('ProjectMembershipChanged', {
      projectId: project.projectId,
      userId: memberId,
      change: 'added',
    });
    const promoted = await service.publish('ProjectMembershipChanged', {
      projectId: project.projectId,
      userId: memberId,
      change: 'role_changed',
    });
    // Events written before `change` existed say nothing about what changed: nothing is revoked.
    const unknown = await service.publish('ProjectMembershipChanged', {
      projectId: project.projectId,
      userId: memberId,
    });
    // Ignored events are not recorded; a later removal on the same queue shows they were read.
    const otherProject = await service.createProject();
    const marker = await service.createToken(otherProject.projectId, otherProject.owner);
    await service.publish('ProjectMembershipChanged', {
      projectId: otherProject.projectId,
      userId: otherProject.ownerId,
      change: 'removed',
    });
    await revocationsOf([marker]);
    expect([added, promoted, unknown].map((e) => service.consumed(e.id))).toEqual([[], [], []]);
    expect(await isLive(token)).toBe(true);
  });
});

describe('UserDeleted', () => {
  it('when an account is deleted, then every live token it created, in every project, is revoked and announced', async () => {
    const first = await service.createProject();
    const second = await service.createProject();
    const userId = newUserId();
    await service.addMember(first.ownerId, first.projectId, userId);
    await service.addMember(second.ownerId, second.projectId, userId);
    const user = await service.as(userId);
    const theirs = [
      await service.createToken(first.projectId, user),
      await service.createToken(second.projectId, user, { label: 'deploy', permissions: 'read_write' }),
    ];
    const someoneElses = await service.createToken(first.projectId, first.owner);

    await service.publish('UserDeleted', { userId });

    const published = await revocationsOf(theirs);
    expect(published.map((e) => e.data['projectId']).sort()).toEqual(
      [first.projectId, second.projectId].sort(),
    );
    for (const token of theirs) expect(await isLive(token)).toBe(false);
    expect(await isLive(someoneElses)).toBe(true);
  });
});
