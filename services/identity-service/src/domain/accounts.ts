import { ConflictError, UnauthorizedError } from '@tolk/http';
import type { Db } from '@tolk/db';
import type { Logger } from '@tolk/logger';
import type { User, UsersRepository } from '../data-access/users-repository.js';
import { newId } from './opaque-tokens.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { Session, Sessions } from './sessions.js';

/** Emails arrive in normalizeEmail's form (@tolk/contracts) from the request schemas. */
export function createAccounts(deps: {
  db: Db;
  users: UsersRepository;
  sessions: Sessions;
  now: () => number;
  logger: Logger;
}) {
  const { db, users, sessions, now, logger } = deps;

  return {
    async signUp(input: { email: string; password: string; name: string | null }): Promise<Session> {
      const passwordHash = await hashPassword(input.password);
      const session = await db.transaction(async (tx) => {
        const user = await users.insertUnlessEmailTaken(
          { userId: newId('usr'), email: input.email, name: input.name, createdAt: now(), passwordHash },
          tx,
        );
        if (!user) throw new ConflictError('An account with this email already exists');
        return sessions.start(user, tx);
      });
      logger.info({ userId: session.user.userId }, 'user signed up');
      return session;
    },

    /** One answer for an unknown email and a wrong password, after the same amount of work. */
    async logIn(input: { email: string; password: string }): Promise<Session> {
      const account = await users.findWithPasswordByEmail(input.email);
      const passwordMatches = await verifyPassword(input.password, account?.passwordHash);
      if (!account || !passwordMatches) throw new UnauthorizedError('Invalid email or password');
      return sessions.start(account.user);
    },

    /** The user behind a verified access token; gone users must sign in again. */
    async getUser(userId: string): Promise<User> {
      const user = await users.findById(userId);
      if (!user) throw new UnauthorizedError('The user of this access token no longer exists');
      return user;
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
