import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** A new opaque identifier such as `usr_5f0c...`; the prefix says what it names. */
export function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll('-', '')}`;
}

/**
 * A bearer secret: a recognisable prefix (so leaked values can be spotted and scanned for)
 * and 256 random bits, base64url.
 */
export function newOpaqueToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** What is stored instead of an opaque token: a lookup needs no salt, the token has full entropy. */
export function hashOpaqueToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
