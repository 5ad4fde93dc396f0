import type { Db } from '@tolk/db';
import type { KeysRepository } from '../data-access/keys-repository.js';
import { UnreadableKeyError, type KeyCipher, type KeyOwner } from './key-cipher.js';

export type RotationReport = {
  activeKeyId: string;
  /** Keys decrypted under their old master key and encrypted again under the active one. */
  reEncrypted: number;
  /** Keys left as they were because they cannot be decrypted (unknown master key, tampered). */
  unreadable: (KeyOwner & { keyId: string; reason: string })[];
  /** After the run: how many keys each master key encrypts. */
  keysByKeyId: Record<string, number>;
};

/**
 * Re-encrypts every stored key that is not under the active master key, in batches of
 * `batchSize`, each batch in a transaction of its own holding its rows' locks. Idempotent: a
 * second run finds nothing left to do. A key that cannot be decrypted is reported and left
 * untouched (never lost, never overwritten); the others are still re-encrypted.
 */
export async function rotateMasterKey(deps: {
  db: Db;
  keys: KeysRepository;
  cipher: KeyCipher;
  batchSize?: number;
}): Promise<RotationReport> {
  const { db, keys, cipher } = deps;
  const batchSize = deps.batchSize ?? 500;
  const unreadable: RotationReport['unreadable'] = [];
  let reEncrypted = 0;
  // Keyset pagination: rows that stay behind (unreadable ones) are never read twice.
  let after: KeyOwner | undefined;

  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const locked = await keys.lockNotUnder(cipher.activeKeyId, after, batchSize, tx);
      const skipped: RotationReport['unreadable'] = [];
      for (const { owner, sealed } of locked) {
        let plaintext: string;
        try {
          plaintext = cipher.open(owner, sealed);
        } catch (err) {
          if (!(err instanceof UnreadableKeyError)) throw err;
          skipped.push({ ...owner, keyId: sealed.keyId, reason: err.message });
          continue;
        }
        await keys.reseal(owner, cipher.seal(owner, plaintext), tx);
      }
      return { locked, skipped };
    });
    // Counted once the batch is committed.
    reEncrypted += batch.locked.length - batch.skipped.length;
    unreadable.push(...batch.skipped);
    if (batch.locked.length < batchSize) break;
    after = batch.locked.at(-1)!.owner;
  }

  return { activeKeyId: cipher.activeKeyId, reEncrypted, unreadable, keysByKeyId: await keys.countByKeyId() };
}
