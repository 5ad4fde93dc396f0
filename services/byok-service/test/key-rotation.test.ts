import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AI_PROVIDERS } from '@tolk/contracts';
import { realServers } from '@tolk/testing';
import { expectError, masterKey, providerKey, startByokService, type ByokService } from './byok-harness.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

// A database per test: rotation works on every row of the schema.
let service: ByokService;
const OLD = masterKey('old');
const NEW = masterKey('new');
const LOST = masterKey('lost');

beforeEach(async () => {
  service = await startByokService({ masterKeys: OLD });
});
afterEach(async () => {
  await service?.close();
});

/** `count` users, each with a key for every provider, stored through the running service. */
async function storeKeys(call: ByokService['call'], count: number) {
  const stored: { as: Record<string, string>; userId: string; provider: string; apiKey: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    const user = await service.newUser();
    for (const provider of AI_PROVIDERS.slice(0, 2)) {
      const apiKey = providerKey(`${provider}-`);
      const response = await call('PUT', `/v1/user/byok/${provider}`, { as: user.as, body: { apiKey } });
      expect(response.status).toBe(200);
      stored.push({ ...user, provider, apiKey });
    }
  }
  return stored;
}

async function rows() {
  const { rows } = await service.db.query<{
    user_id: string;
    provider: string;
    key_id: string;
    nonce: Buffer;
    ciphertext: Buffer;
    updated_at: Date;
  }>(
    `SELECT user_id, provider, key_id, nonce, ciphertext, updated_at FROM provider_keys ORDER BY user_id, provider`,
  );
  return rows;
}

describe('rotating the master key', () => {
  it('when keys are under the old master key, then rotation re-encrypts all under the new one, in batches, and they still decrypt', async () => {
    const stored = await storeKeys(service.call, 5);
    const before = await rows();
    expect(new Set(before.map((row) => row.key_id))).toStrictEqual(new Set(['old']));

    const report = await service.rotate(`${NEW},${OLD}`, 3);
    expect(report).toStrictEqual({
      activeKeyId: 'new',
      reEncrypted: 10,
      unreadable: [],
      keysByKeyId: { new: 10 },
    });

    const after = await rows();
    expect(after).toHaveLength(10);
    after.forEach((row, index) => {
      expect(row.key_id).toBe('new');
      expect(row.nonce.equals(before[index]!.nonce)).toBe(false);
      expect(row.ciphertext.equals(before[index]!.ciphertext)).toBe(false);
      // When the user set the key is not when it was re-encrypted.
      expect(row.updated_at.getTime()).toBe(before[index]!.updated_at.getTime());
    });

    // A service that knows only the new master key reads every key back.
    const rotated = await service.serve(NEW);
    for (const { as, provider, apiKey } of stored) {
      const response = await rotated.call('GET', `/v1/user/byok/${provider}`, { as });
      expect(response.body).toStrictEqual({ hasKey: true, apiKey });
    }
    // One that knows only the old key reads none: the old ciphertexts are gone.
    const { as, provider, apiKey } = stored[0]!;
    const stale = await service.serve(OLD);
    const response = await stale.call('GET', `/v1/user/byok/${provider}`, { as });
    expectError(response, 500, 'INTERNAL_ERROR');
    expect(response.text).not.toContain(apiKey);
  });

  it('when rotation runs again, then nothing is re-encrypted and no row changes (idempotent)', async () => {
    await storeKeys(service.call, 2);
    await service.rotate(`${NEW},${OLD}`);
    const once = await rows();

    const again = await service.rotate(`${NEW},${OLD}`);
    expect(again).toStrictEqual({
      activeKeyId: 'new',
      reEncrypted: 0,
      unreadable: [],
      keysByKeyId: { new: 4 },
    });
    expect(await rows()).toStrictEqual(once);
  });

  it('when new keys are written after the new master key is first, then they are under it already, and rotation takes only the rest', async () => {
    await storeKeys(service.call, 2);
    const upgraded = await service.serve(`${NEW},${OLD}`);
    await storeKeys(upgraded.call, 1);
    expect((await rows()).map((row) => row.key_id).sort()).toStrictEqual([
      'new',
      'new',
      'old',
      'old',
      'old',
      'old',
    ]);

    const report = await service.rotate(`${NEW},${OLD}`, 2);
    expect(report.reEncrypted).toBe(4);
    expect(report.keysByKeyId).toStrictEqual({ new: 6 });
  });

  it('when a row is under a master key id that is not configured, then it fails closed: reported, left untouched, the others rotated', async () => {
    const stored = await storeKeys(service.call, 3);
    const lost = await service.serve(LOST);
    const orphan = await service.newUser();
    const orphanKey = providerKey();
    await lost.call('PUT', '/v1/user/byok/google', { as: orphan.as, body: { apiKey: orphanKey } });
    const orphanRow = (await rows()).find((row) => row.user_id === orphan.userId)!;

    const report = await service.rotate(`${NEW},${OLD}`, 2);
    expect(report.reEncrypted).toBe(6);
    expect(report.unreadable).toStrictEqual([
      {
        userId: orphan.userId,
        provider: 'google',
        keyId: 'lost',
        reason: expect.stringContaining('master key id "lost" is not configured'),
      },
    ]);
    expect(JSON.stringify(report)).not.toContain(orphanKey);
    expect(report.keysByKeyId).toStrictEqual({ lost: 1, new: 6 });
    expect((await rows()).find((row) => row.user_id === orphan.userId)).toStrictEqual(orphanRow);

    // Nothing comes back from it where the lost key is not configured; its keys are intact where it is.
    const rotated = await service.serve(`${NEW},${OLD}`);
    expectError(await rotated.call('GET', '/v1/user/byok/google', { as: orphan.as }), 500, 'INTERNAL_ERROR');
    expect((await lost.call('GET', '/v1/user/byok/google', { as: orphan.as })).body.apiKey).toBe(orphanKey);
    for (const { as, provider, apiKey } of stored) {
      expect((await rotated.call('GET', `/v1/user/byok/${provider}`, { as })).body.apiKey).toBe(apiKey);
    }
  });

  it('when a tampered row is met, then it is reported and left as it is, the others rotated', async () => {
    const [first] = await storeKeys(service.call, 2);
    await service.db.query(
      `UPDATE provider_keys SET tag = set_byte(tag, 0, get_byte(tag, 0) # 1) WHERE user_id = $1 AND provider = $2`,
      [first!.userId, first!.provider],
    );
    const report = await service.rotate(`${NEW},${OLD}`);
    expect(report.reEncrypted).toBe(3);
    expect(report.unreadable.map((row) => [row.userId, row.keyId])).toStrictEqual([[first!.userId, 'old']]);
    expect(report.unreadable[0]!.reason).toContain('authentication failed');
  });
});

// Another process, connecting to the database on its own.
describe.skipIf(!realServers().postgres)('npm run byok:rotate', () => {
  async function rotate(masterKeys: string) {
    return run(
      process.execPath,
      ['--conditions=tolk-source', '--import', 'tsx', 'services/byok-service/src/rotate.ts'],
      {
        cwd: ROOT,
        env: { PATH: process.env['PATH'], DATABASE_URL: service.databaseUrl, BYOK_MASTER_KEYS: masterKeys },
      },
    ).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
  }

  it('when run, then it prints how many keys it re-encrypted, 0 the second time, and exits 0', async () => {
    await storeKeys(service.call, 2);
    const first = await rotate(`${NEW},${OLD}`);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout.trim()).toBe(
      'byok: 4 key(s) re-encrypted under master key "new". Keys per master key id: new: 4',
    );
    const second = await rotate(`${NEW},${OLD}`);
    expect(second.stdout.trim()).toBe(
      'byok: 0 key(s) re-encrypted under master key "new". Keys per master key id: new: 4',
    );
  });

  it('when a key cannot be decrypted, then it names it on stderr, without the key, and exits 1', async () => {
    await storeKeys(service.call, 1);
    const lost = await service.serve(LOST);
    const orphan = await service.newUser();
    const orphanKey = providerKey();
    await lost.call('PUT', '/v1/user/byok/mistral', { as: orphan.as, body: { apiKey: orphanKey } });

    const result = await rotate(`${NEW},${OLD}`);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(orphan.userId);
    expect(result.stderr).toContain('master key id "lost" is not configured');
    expect(result.stdout).toContain('2 key(s) re-encrypted under master key "new"; 1 could not be decrypted');
    expect(result.stdout + result.stderr).not.toContain(orphanKey);
  });

  it('when BYOK_MASTER_KEYS is malformed, then it says which entry, without the key, and exits 1', async () => {
    const secret = 'c2hvcnQta2V5LW1hdGVyaWFs';
    const result = await rotate(`new:${secret}`);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'BYOK_MASTER_KEYS: entry 1 ("new"): the key must be 32 random bytes in base64',
    );
    expect(result.stderr).not.toContain(secret);
  });
});
