import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { AiProvider } from '@tolk/contracts';
import type { MasterKeyring } from './master-keys.js';

const ALGORITHM = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** Whose key it is: bound to the ciphertext as associated data. */
export type KeyOwner = { userId: string; provider: AiProvider };

/** A provider key as stored: AES-256-GCM ciphertext under master key `keyId`. */
export type SealedKey = { keyId: string; nonce: Buffer; ciphertext: Buffer; tag: Buffer };

/**
 * A stored key that cannot be decrypted: its master key is not configured, or the ciphertext,
 * nonce, tag or owner do not belong together (tampered, or moved to another row). It names the
 * row and the master key id, never any key material; it is no error of the caller's, so it
 * answers 500 and is logged at error level.
 */
export class UnreadableKeyError extends Error {
  readonly userId: string;
  readonly provider: AiProvider;
  readonly keyId: string;

  constructor(owner: KeyOwner, keyId: string, reason: string) {
    super(`The stored ${owner.provider} key of user ${owner.userId} cannot be decrypted: ${reason}`);
    this.name = 'UnreadableKeyError';
    this.userId = owner.userId;
    this.provider = owner.provider;
    this.keyId = keyId;
  }
}

/** Unambiguous for any user id: a JSON array, never a plain concatenation. */
function associatedData(owner: KeyOwner): Buffer {
  return Buffer.from(JSON.stringify(['tolk.byok.v1', owner.userId, owner.provider]), 'utf8');
}

/** Encrypts provider keys under the active master key and decrypts them under whichever one made them. */
export function createKeyCipher(keyring: MasterKeyring) {
  return {
    activeKeyId: keyring.active.id,

    /** A fresh random nonce every time: the same key sealed twice gives two different ciphertexts. */
    seal(owner: KeyOwner, plaintext: string): SealedKey {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv(ALGORITHM, keyring.active.key, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(associatedData(owner));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return { keyId: keyring.active.id, nonce, ciphertext, tag: cipher.getAuthTag() };
    },

    /** The plaintext, or UnreadableKeyError: nothing is ever returned from a key that fails to authenticate. */
    open(owner: KeyOwner, sealed: SealedKey): string {
      const master = keyring.byId.get(sealed.keyId);
      if (!master) {
        throw new UnreadableKeyError(
          owner,
          sealed.keyId,
          `master key id "${sealed.keyId}" is not configured`,
        );
      }
      if (sealed.nonce.length !== NONCE_BYTES || sealed.tag.length !== TAG_BYTES) {
        throw new UnreadableKeyError(owner, sealed.keyId, 'the nonce or tag has the wrong length');
      }
      try {
        const decipher = createDecipheriv(ALGORITHM, master.key, sealed.nonce, { authTagLength: TAG_BYTES });
        decipher.setAAD(associatedData(owner));
        decipher.setAuthTag(sealed.tag);
        return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new UnreadableKeyError(
          owner,
          sealed.keyId,
          'authentication failed (the ciphertext was altered or belongs to another user or provider)',
        );
      }
    },
  };
}

export type KeyCipher = ReturnType<typeof createKeyCipher>;
