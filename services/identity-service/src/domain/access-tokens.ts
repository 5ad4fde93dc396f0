import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ACCESS_TOKEN_ALGORITHM, ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@tolk/contracts';

/** RFC 7638 thumbprint of the public half: a stable `kid` that changes when the key is rotated. */
function keyId(privateKey: KeyObject): string {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

/** Signs the short-lived ES256 access tokens the gateway verifies with the public key. */
export function createAccessTokenIssuer(deps: {
  privateKeyPem: string;
  ttlSeconds: number;
  now: () => number;
}) {
  // Parsed once: signing is on the login and refresh paths.
  const privateKey = createPrivateKey(deps.privateKeyPem);
  const kid = keyId(privateKey);

  return {
    ttlSeconds: deps.ttlSeconds,
    async issue(userId: string): Promise<string> {
      const issuedAt = Math.floor(deps.now() / 1000);
      return jwt.sign({ iat: issuedAt, exp: issuedAt + deps.ttlSeconds }, privateKey, {
        algorithm: ACCESS_TOKEN_ALGORITHM,
        keyid: kid,
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
        subject: userId,
      });
    },
  };
}

export type AccessTokenIssuer = ReturnType<typeof createAccessTokenIssuer>;
