import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embeddedDatabaseDir, startEmbeddedTolk } from '../../scripts/embedded.js';
import { TEST_PASSWORD_SCRYPT_N } from '@tolk/testing';
import { gatewayClient } from '../e2e/system.js';

/**
 * Tolk as `npm start` runs it with no servers (scripts/embedded.ts), for tests: in one process,
 * PGlite in a temporary folder, on free ports. The same `call` and `signUp` as test/e2e's system.
 */
export async function startEmbeddedSystem(options: { gatewayEnv?: Record<string, string> } = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tolk-embedded-'));
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const tolk = await startEmbeddedTolk({
    dataDir: embeddedDatabaseDir(dataDir),
    tolkDataDir: dataDir,
    secrets: {
      jwtPrivateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      jwtPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      internalJwtSecret: randomBytes(32).toString('base64url'),
    },
    publicUrl: 'http://localhost:8080',
    port: 0,
    host: '127.0.0.1',
    usualPorts: false,
    logLevel: 'silent',
    gatewayEnv: options.gatewayEnv,
    serviceEnv: { PASSWORD_SCRYPT_N: TEST_PASSWORD_SCRYPT_N },
  });

  return {
    base: tolk.gatewayUrl,
    metricsUrl: tolk.metricsUrl,
    startedInMs: tolk.startedInMs,
    ...gatewayClient(tolk.gatewayUrl),
    async close(): Promise<void> {
      await tolk.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type EmbeddedSystem = Awaited<ReturnType<typeof startEmbeddedSystem>>;
