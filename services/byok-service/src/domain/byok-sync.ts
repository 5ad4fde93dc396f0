import type { Queryable } from '@tolk/db';
import type { KeysRepository } from '../data-access/keys-repository.js';

/** What byok-service learns from other services' events, inside the consumer's transaction. */
export function createByokSync(deps: { keys: KeysRepository; now: () => number }) {
  const { keys, now } = deps;
  return {
    /** UserDeleted: the user's provider keys are deleted, and none is stored for them again. */
    async userDeleted(userId: string, tx: Queryable): Promise<void> {
      await keys.deleteUser(userId, now(), tx);
    },
  };
}

export type ByokSync = ReturnType<typeof createByokSync>;
