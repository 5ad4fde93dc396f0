import { NotFoundError } from '@tolk/errors';
import type { User, UsersRepository } from '../data-access/users-repository.js';

/**
 * Lookups for other services (over `/internal/...`): project-service adds members by email and
 * shows members' emails, but owns no users. Emails arrive in normalizeEmail's form.
 */
export function createUserDirectory(deps: { users: UsersRepository }) {
  const { users } = deps;

  return {
    async getByEmail(email: string): Promise<User> {
      const user = await users.findByEmail(email);
      if (!user) throw new NotFoundError('No user with that email');
      return user;
    },

    /** The users that exist, in the order asked for; unknown ids are left out. */
    async findByIds(userIds: string[]): Promise<User[]> {
      const found = new Map((await users.findByIds([...new Set(userIds)])).map((u) => [u.userId, u]));
      return [...new Set(userIds)].flatMap((userId) => found.get(userId) ?? []);
    },
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;
