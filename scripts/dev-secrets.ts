import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type Secrets = { jwtPrivateKey: string; jwtPublicKey: string; internalJwtSecret: string };

/**
 * Secrets for running on one machine: taken from the configuration when given, otherwise
 * generated once and kept (mode 0600) under the data directory so sessions survive restarts.
 * Production never gets here with dev secrets: it must pass real ones.
 */
export async function resolveSecrets(options: {
  dataDir: string;
  production: boolean;
  configured: Partial<Secrets>;
}): Promise<{ secrets: Secrets; generated: boolean }> {
  const { jwtPrivateKey, jwtPublicKey, internalJwtSecret } = options.configured;
  if (jwtPrivateKey && jwtPublicKey && internalJwtSecret) {
    return { secrets: { jwtPrivateKey, jwtPublicKey, internalJwtSecret }, generated: false };
  }
  if (options.production) {
    throw new Error(
      'NODE_ENV=production needs JWT_PRIVATE_KEY, JWT_PUBLIC_KEY and INTERNAL_JWT_SECRET; dev secrets are refused',
    );
  }
  const file = path.join(options.dataDir, 'dev-secrets.json');
  try {
    return { secrets: JSON.parse(await readFile(file, 'utf8')) as Secrets, generated: false };
  } catch {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const secrets: Secrets = {
      jwtPrivateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      jwtPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      internalJwtSecret: randomBytes(32).toString('base64url'),
    };
    await mkdir(options.dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    return { secrets, generated: true };
  }
}
