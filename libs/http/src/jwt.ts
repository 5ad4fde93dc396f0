import type { KeyObject } from 'node:crypto';
import jwt, { type Algorithm, type JwtPayload, type VerifyOptions } from 'jsonwebtoken';

/**
 * jsonwebtoken's `verify` with the algorithms pinned and the named claims required: it checks
 * `exp` and `nbf` only when a token carries them, so a token without `exp` would never expire.
 * Throws a `JsonWebTokenError` (or one of its subclasses) for any token refused.
 */
export function verifyJwt(
  token: string,
  key: KeyObject,
  options: Omit<VerifyOptions, 'complete' | 'algorithms'> & {
    algorithms: [Algorithm, ...Algorithm[]];
    requiredClaims: readonly string[];
  },
): JwtPayload {
  const { requiredClaims, ...verifyOptions } = options;
  const payload = jwt.verify(token, key, verifyOptions);
  if (typeof payload === 'string') throw new jwt.JsonWebTokenError('jwt payload is not a JSON object');
  const missing = requiredClaims.find((claim) => !Object.hasOwn(payload, claim));
  if (missing !== undefined) throw new jwt.JsonWebTokenError(`jwt misses the required "${missing}" claim`);
  return payload;
}
