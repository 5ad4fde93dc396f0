import { z } from 'zod';
import { createInternalClient, type InternalClientOptions } from '@tolk/internal-client';

/** What identity-service tells other services about a user. */
export type DirectoryUser = { userId: string; email: string; name: string | null };

const directoryUserSchema = z.object({ userId: z.string(), email: z.string(), name: z.string().nullable() });
const usersLookupSchema = z.object({ users: z.array(directoryUserSchema) });

/** identity-service answers at most this many ids per lookup. */
const LOOKUP_BATCH_SIZE = 1000;

/**
 * identity-service's internal API, over HTTP: users by email and by id. Unreachable or faulty →
 * 503 SERVICE_UNAVAILABLE; slower than `timeoutMs` → 504 GATEWAY_TIMEOUT (DESIGN §3).
 */
export function createIdentityClient(deps: InternalClientOptions) {
  const client = createInternalClient({ ...deps, service: 'identity-service', serves: 'user directory' });

  return {
    /** The user with that email (as typed; identity-service normalises it), or undefined. */
    async findUserByEmail(email: string): Promise<DirectoryUser | undefined> {
      const path = `/internal/users?${new URLSearchParams({ email })}`;
      const answer = await client.call(path);
      if (answer.status === 404) return undefined;
      return client.expect(directoryUserSchema, answer, '/internal/users');
    },

    /** The users among `userIds` that exist. */
    async findUsersByIds(userIds: string[]): Promise<DirectoryUser[]> {
      const users: DirectoryUser[] = [];
      for (let start = 0; start < userIds.length; start += LOOKUP_BATCH_SIZE) {
        const path = '/internal/users/lookup';
        const batch = userIds.slice(start, start + LOOKUP_BATCH_SIZE);
        const answer = await client.call(path, { method: 'POST', body: { userIds: batch } });
        users.push(...client.expect(usersLookupSchema, answer, path).users);
      }
      return users;
    },
  };
}

export type IdentityClient = ReturnType<typeof createIdentityClient>;
