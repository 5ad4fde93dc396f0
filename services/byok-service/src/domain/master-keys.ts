import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

/** AES-256: a master key is exactly 32 bytes. */
export const MASTER_KEY_BYTES = 32;

const KEY_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * A master key and the id stored beside every ciphertext made with it. The key is a KeyObject,
 * not a Buffer, so that inspecting or serialising it (a log line, an error) shows no key bytes.
 */
export type MasterKey = { id: string; key: KeyObject };

/** Every configured master key by id; `active` (the first configured) encrypts every write. */
export type MasterKeyring = { active: MasterKey; byId: ReadonlyMap<string, MasterKey> };

/**
 * Parses `kid:base64key,kid:base64key,...` (standard or URL-safe base64, padding optional).
 * Problems name the entry and its id, never any key material.
 */
export function parseMasterKeys(text: string): { keyring: MasterKeyring } | { problems: string[] } {
  const problems: string[] = [];
  const keys: MasterKey[] = [];
  const seen = new Set<string>();
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  entries.forEach((entry, index) => {
    const at = entry.indexOf(':');
    const id = at < 0 ? '' : entry.slice(0, at).trim();
    const encoded = at < 0 ? '' : entry.slice(at + 1).trim();
    const name = `entry ${index + 1}${KEY_ID.test(id) ? ` ("${id}")` : ''}`;
    if (at < 0) {
      problems.push(`${name} must be kid:base64key`);
    } else if (!KEY_ID.test(id)) {
      problems.push(
        `${name}: the key id must be 1 to 64 of A-Z a-z 0-9 . _ - (starting with a letter or digit)`,
      );
    } else if (seen.has(id)) {
      problems.push(`${name}: the key id "${id}" appears more than once`);
    } else {
      seen.add(id);
      const bytes = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : undefined;
      if (bytes?.length !== MASTER_KEY_BYTES) {
        problems.push(`${name}: the key must be ${MASTER_KEY_BYTES} random bytes in base64`);
      } else {
        keys.push({ id, key: createSecretKey(bytes) });
        bytes.fill(0);
      }
    }
  });
  if (entries.length === 0) problems.push('must hold at least one kid:base64key');
  if (problems.length > 0) return { problems };
  return { keyring: { active: keys[0]!, byId: new Map(keys.map((key) => [key.id, key])) } };
}

/** A fresh master key in the configuration's format (`kid:base64key`). */
export function generateMasterKey(id: string): string {
  if (!KEY_ID.test(id)) throw new Error(`Invalid master key id: ${id}`);
  return `${id}:${randomBytes(MASTER_KEY_BYTES).toString('base64')}`;
}
