import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { request } from '@tolk/testing';
import { startEmbeddedTolk } from '../../scripts/embedded.js';

/**
 * Tolk as `npm start` runs it with no servers (scripts/embedded.ts), for tests: in one process,
 * PGlite in a temporary folder, on free ports. The same `call` and `signUp` as test/e2e's system.
 */
export async function startEmbeddedSystem(options: { gatewayEnv?: Record<string, string> } = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tolk-embedded-'));
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const tolk = await startEmbeddedTolk({
    dataDir: path.join(dataDir, 'pgdata'),
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
  });

  const call = (method: string, route: string, token?: string, body?: unknown) =>
    request(`${tolk.gatewayUrl}${route}`, {
      method,
      body,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  return {
    base: tolk.gatewayUrl,
    startedInMs: tolk.startedInMs,
    call,
    async signUp(): Promise<{ email: string; token: string; userId: string }> {
      const email = `user-${randomUUID()}@example.com`;
      const response = await call('POST', '/v1/auth/signup', undefined, {
        email,
        password: 'correct horse battery',
      });
      expect(response.status).toBe(201);
      return { email, token: response.body.accessToken, userId: response.body.user.userId };
    },
    async close(): Promise<void> {
      await tolk.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type EmbeddedSystem = Awaited<ReturnType<typeof startEmbeddedSystem>>;
