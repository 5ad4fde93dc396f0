import { AI_PROVIDERS, type AiProvider } from '@tolk/contracts';
import { UnauthorizedError } from '@tolk/errors';
import type { KeysRepository } from '../data-access/keys-repository.js';
import type { KeyCipher, KeyOwner } from './key-cipher.js';

/** What the CLI reads: the key itself, decrypted, or `""` when there is none (DESIGN §7). */
export type KeyReading = { hasKey: boolean; apiKey: string };

/** What a list or a write shows of a key: its last four characters, never the key. */
export type KeyStatus = {
  provider: AiProvider;
  hasKey: boolean;
  hint: string | null;
  updatedAt: number | null;
};

export type StoredKeyStatus = KeyStatus & { hasKey: true; hint: string; updatedAt: number };

const HINT_CHARACTERS = 4;

/** The last characters of a key, counted in code points so no character is cut in half. */
export function hintOf(apiKey: string): string {
  return Array.from(apiKey).slice(-HINT_CHARACTERS).join('');
}

/** A user's AI-provider keys: stored encrypted, read back decrypted by their owner only. */
export function createProviderKeys(deps: { keys: KeysRepository; cipher: KeyCipher; now: () => number }) {
  const { keys, cipher, now } = deps;

  return {
    /** Throws UnreadableKeyError rather than return anything of a key that does not decrypt. */
    async read(owner: KeyOwner): Promise<KeyReading> {
      const stored = await keys.find(owner);
      if (!stored) return { hasKey: false, apiKey: '' };
      return { hasKey: true, apiKey: cipher.open(owner, stored.sealed) };
    },

    /** Stores the key, replacing the user's previous one for the provider. */
    async store(owner: KeyOwner, apiKey: string): Promise<StoredKeyStatus> {
      const hint = hintOf(apiKey);
      const stored = await keys.upsert(owner, { sealed: cipher.seal(owner, apiKey), hint, at: now() });
      // An access token that outlived its account by the moment the gateway takes to learn of it.
      if (!stored) throw new UnauthorizedError('This account has been deleted');
      return { provider: owner.provider, hasKey: true, hint: stored.hint, updatedAt: stored.updatedAt };
    },

    /** Idempotent: removing a key that is not there is no error. */
    async remove(owner: KeyOwner): Promise<void> {
      await keys.delete(owner);
    },

    /** Every provider, in a fixed order, stored or not: a settings page shows one row each. */
    async list(userId: string): Promise<KeyStatus[]> {
      const stored = new Map((await keys.listSummaries(userId)).map((key) => [key.provider, key]));
      return AI_PROVIDERS.map((provider) => {
        const key = stored.get(provider);
        return key
          ? { provider, hasKey: true, hint: key.hint, updatedAt: key.updatedAt }
          : { provider, hasKey: false, hint: null, updatedAt: null };
      });
    },
  };
}

export type ProviderKeys = ReturnType<typeof createProviderKeys>;
