import { randomInt } from 'node:crypto';

/**
 * The code a person types on the verification page (RFC 8628 §6.1): consonants only, so no
 * digit/letter look-alikes and no words; 20^8 (about 2^34.6) values, shown as XXXX-XXXX.
 */
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const LENGTH = 8;

// What a user may type back is part of the HTTP contract: USER_CODE_PATTERN in @tolk/contracts,
// which must accept exactly the codes made here.

export function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

export function formatUserCode(code: string): string {
  return `${code.slice(0, LENGTH / 2)}-${code.slice(LENGTH / 2)}`;
}
