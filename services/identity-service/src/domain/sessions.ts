import { UnauthorizedError } from '@tolk/errors';
import type { Db, Queryable } from '@tolk/db';
import type { Logger } from '@tolk/logger';
import type { RefreshTokensRepository } from '../data-access/refresh-tokens-repository.js';
import type { User, UsersRepository } from '../data-access/users-repository.js';
import type { AccessTokenIssuer } from './access-tokens.js';
import { hashOpaqueToken, newId, newOpaqueToken } from './opaque-tokens.js';

export type Session = { user: User; accessToken: string; refreshToken: string; expiresIn: number };

const REFRESH_TOKEN_PREFIX = 'tolkr';
const INVALID_REFRESH_TOKEN = 'Refresh token is invalid, expired or revoked; sign in again';

/**
 * Signed-in sessions: an access token plus a rotating refresh token. Every sign-in starts a
 * family of refresh tokens; each refresh spends one and hands out its successor. Spending one
 * twice means it leaked, so the whole family is revoked.
 */
export function createSessions(deps: {
  db: Db;
  users: UsersRepository;
  refreshTokens: RefreshTokensRepository;
  accessTokens: AccessTokenIssuer;
  refreshTokenTtlSeconds: number;
  now: () => number;
  logger: Logger;
}) {
  const { db, users, refreshTokens, accessTokens, now, logger } = deps;

  async function issueTokens(user: User, familyId: string, q: Queryable): Promise<Session> {
    const refreshToken = newOpaqueToken(REFRESH_TOKEN_PREFIX);
    const issuedAt = now();
    await refreshTokens.insertToken(
      {
        tokenHash: hashOpaqueToken(refreshToken),
        familyId,
        createdAt: issuedAt,
        expiresAt: issuedAt + deps.refreshTokenTtlSeconds * 1000,
      },
      q,
    );
    const accessToken = await accessTokens.issue(user.userId);
    return { user, accessToken, refreshToken, expiresIn: accessTokens.ttlSeconds };
  }

  async function start(user: User, q: Queryable): Promise<Session> {
    const familyId = newId('rtf');
    await refreshTokens.insertFamily({ familyId, userId: user.userId, createdAt: now() }, q);
    return issueTokens(user, familyId, q);
  }

  return {
    /** A new sign-in, inside the caller's transaction or its own. */
    start(user: User, tx?: Queryable): Promise<Session> {
      return tx ? start(user, tx) : db.transaction((q) => start(user, q));
    },

    async refresh(refreshToken: string): Promise<Session> {
      const tokenHash = hashOpaqueToken(refreshToken);
      const at = now();
      // The revocation on reuse must commit, so the transaction returns an outcome and the
      // error is thrown after it.
      const outcome = await db.transaction(async (q) => {
        const stored = await refreshTokens.findForUpdate(tokenHash, q);
        if (!stored || stored.familyRevokedAt !== null) return { kind: 'invalid' } as const;
        if (stored.rotatedAt !== null) {
          await refreshTokens.revokeFamily(stored.familyId, at, q);
          return { kind: 'reused', familyId: stored.familyId, userId: stored.userId } as const;
        }
        if (stored.expiresAt <= at) return { kind: 'invalid' } as const;
        const user = await users.findById(stored.userId, q);
        if (!user) return { kind: 'invalid' } as const;
        await refreshTokens.markRotated(tokenHash, at, q);
        return { kind: 'rotated', session: await issueTokens(user, stored.familyId, q) } as const;
      });
      if (outcome.kind === 'reused') {
        logger.warn(
          { userId: outcome.userId, familyId: outcome.familyId },
          'rotated refresh token presented again; token family revoked',
        );
      }
      if (outcome.kind !== 'rotated') throw new UnauthorizedError(INVALID_REFRESH_TOKEN);
      return outcome.session;
    },

    /** Ends the sign-in the token belongs to; an unknown token is already signed out. */
    async logout(refreshToken: string): Promise<void> {
      await refreshTokens.revokeFamilyOfToken(hashOpaqueToken(refreshToken), now());
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
