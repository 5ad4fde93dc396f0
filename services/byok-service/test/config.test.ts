import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '@tolk/config';
import { loadByokConfig, loadMigrationConfig, loadRotationConfig } from '../src/config.js';
import { createKeyCipher } from '../src/domain/key-cipher.js';
import { DEV_MASTER_KEY_FILE, resolveMasterKeys } from '../src/master-key-source.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

const required = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/tolk',
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
  INTERNAL_JWT_SECRET: 'x'.repeat(32),
};

const base64Key = () => randomBytes(32).toString('base64');

function problemsOf(load: () => unknown): string[] {
  try {
    load();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('byok-service configuration', () => {
  it('when only the required values are set, then every default applies and no master key is configured', () => {
    const config = loadByokConfig(required);
    expect(config).toStrictEqual({
      ...required,
      PORT: 8086,
      HOST: '127.0.0.1',
      NODE_ENV: 'development',
      TOLK_DATA_DIR: './.tolk',
      LOG_LEVEL: 'info',
    });
    expect(config.BYOK_MASTER_KEYS).toBeUndefined();
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('when BYOK_MASTER_KEYS holds several keys, then the first is active and every one decrypts', () => {
    const urlSafeUnpadded = randomBytes(32).toString('base64url');
    const config = loadByokConfig({
      ...required,
      BYOK_MASTER_KEYS: ` k2025-06:${base64Key()} , k2024.1:${base64Key()},legacy_0:${urlSafeUnpadded}, `,
    });
    const keyring = config.BYOK_MASTER_KEYS!;
    expect(keyring.active.id).toBe('k2025-06');
    expect([...keyring.byId.keys()]).toStrictEqual(['k2025-06', 'k2024.1', 'legacy_0']);
    expect(keyring.byId.get('legacy_0')!.key.symmetricKeySize).toBe(32);
  });

  it('when an entry of BYOK_MASTER_KEYS is malformed, then each is named, and no message holds key material', () => {
    const keys = {
      short: randomBytes(16).toString('base64'),
      long: randomBytes(48).toString('base64'),
      garbage: `${base64Key().slice(0, 20)}!!${base64Key().slice(0, 22)}`,
      good: base64Key(),
    };
    const problems = problemsOf(() =>
      loadByokConfig({
        ...required,
        BYOK_MASTER_KEYS: [
          `a:${keys.short}`,
          `b:${keys.long}`,
          `c:${keys.garbage}`,
          keys.good,
          `bad id:${keys.good}`,
          `a:${keys.good}`,
        ].join(','),
      }),
    );
    expect(problems).toStrictEqual([
      'BYOK_MASTER_KEYS: entry 1 ("a"): the key must be 32 random bytes in base64',
      'BYOK_MASTER_KEYS: entry 2 ("b"): the key must be 32 random bytes in base64',
      'BYOK_MASTER_KEYS: entry 3 ("c"): the key must be 32 random bytes in base64',
      'BYOK_MASTER_KEYS: entry 4 must be kid:base64key',
      'BYOK_MASTER_KEYS: entry 5: the key id must be 1 to 64 of A-Z a-z 0-9 . _ - (starting with a letter or digit)',
      'BYOK_MASTER_KEYS: entry 6 ("a"): the key id "a" appears more than once',
    ]);
    const text = problems.join('\n');
    for (const value of Object.values(keys)) expect(text).not.toContain(value.slice(0, 12));
  });

  it('when BYOK_MASTER_KEYS is only commas, then it is named', () => {
    expect(problemsOf(() => loadByokConfig({ ...required, BYOK_MASTER_KEYS: ' , ,' }))).toStrictEqual([
      'BYOK_MASTER_KEYS: must hold at least one kid:base64key',
    ]);
  });

  it('when NODE_ENV is production without BYOK_MASTER_KEYS (unset or empty), then the start is refused with the reason', () => {
    for (const unset of [{}, { BYOK_MASTER_KEYS: '' }, { BYOK_MASTER_KEYS: '  ' }]) {
      const problems = problemsOf(() => loadByokConfig({ ...required, NODE_ENV: 'production', ...unset }));
      expect(problems).toStrictEqual([
        expect.stringMatching(
          /^BYOK_MASTER_KEYS: is required when NODE_ENV=production .*development key is refused/,
        ),
      ]);
    }
    const config = loadByokConfig({
      ...required,
      NODE_ENV: 'production',
      BYOK_MASTER_KEYS: `k1:${base64Key()}`,
    });
    expect(config.BYOK_MASTER_KEYS!.active.id).toBe('k1');
  });

  it('requires exactly DATABASE_URL, AMQP_URL and INTERNAL_JWT_SECRET', () => {
    expect(problemsOf(() => loadByokConfig({})).map((p) => p.split(':')[0])).toStrictEqual([
      'DATABASE_URL',
      'AMQP_URL',
      'INTERNAL_JWT_SECRET',
    ]);
  });

  it('when migrating, then only DATABASE_URL is needed; when rotating, not the internal secret', () => {
    expect(loadMigrationConfig({ DATABASE_URL: required.DATABASE_URL })).toStrictEqual({
      DATABASE_URL: required.DATABASE_URL,
      LOG_LEVEL: 'info',
    });
    expect(loadRotationConfig({ DATABASE_URL: required.DATABASE_URL }).BYOK_MASTER_KEYS).toBeUndefined();
    expect(
      problemsOf(() => loadRotationConfig({ DATABASE_URL: required.DATABASE_URL, NODE_ENV: 'production' })),
    ).toStrictEqual([expect.stringMatching(/^BYOK_MASTER_KEYS: is required when NODE_ENV=production/)]);
  });
});

describe('the development master key', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = path.join(await mkdtemp(path.join(tmpdir(), 'tolk-byok-')), 'nested', '.tolk');
  });
  afterEach(async () => {
    await rm(path.dirname(path.dirname(dataDir)), { recursive: true, force: true });
  });

  const development = () => ({
    NODE_ENV: 'development' as const,
    BYOK_MASTER_KEYS: undefined,
    TOLK_DATA_DIR: dataDir,
  });

  it('when BYOK_MASTER_KEYS is unset outside production, then a key is generated once, mode 0600, and reused on restart', async () => {
    const first = await resolveMasterKeys(development());
    expect(first).toMatchObject({
      from: 'development-file',
      generated: true,
      file: path.join(dataDir, DEV_MASTER_KEY_FILE),
    });
    const { mode } = await stat(path.join(dataDir, DEV_MASTER_KEY_FILE));
    expect(mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(dataDir, DEV_MASTER_KEY_FILE), 'utf8')).toMatch(
      /^dev-[0-9a-f]{8}:[A-Za-z0-9+/]{43}=\n$/,
    );

    const second = await resolveMasterKeys(development());
    expect(second).toMatchObject({ from: 'development-file', generated: false });
    expect(second.keyring.active.id).toBe(first.keyring.active.id);
    // The same key: what the first start encrypted, the second decrypts.
    const owner = { userId: 'usr_1', provider: 'openai' } as const;
    const sealed = createKeyCipher(first.keyring).seal(owner, 'sk-survives-a-restart');
    expect(createKeyCipher(second.keyring).open(owner, sealed)).toBe('sk-survives-a-restart');
  });

  it('when several processes start at once, then all end up with the same key', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => resolveMasterKeys(development())));
    expect(new Set(results.map((r) => r.keyring.active.id)).size).toBe(1);
    expect(results.filter((r) => r.from === 'development-file' && r.generated)).toHaveLength(1);
  });

  it('when BYOK_MASTER_KEYS is set, then it is used and no file is written', async () => {
    const config = loadByokConfig({
      ...required,
      BYOK_MASTER_KEYS: `env1:${base64Key()}`,
      TOLK_DATA_DIR: dataDir,
    });
    const source = await resolveMasterKeys(config);
    expect(source).toMatchObject({ from: 'environment' });
    expect(source.keyring.active.id).toBe('env1');
    await expect(stat(path.join(dataDir, DEV_MASTER_KEY_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('when the file is damaged, then the start fails naming the file, not its content', async () => {
    await resolveMasterKeys(development());
    const file = path.join(dataDir, DEV_MASTER_KEY_FILE);
    await writeFile(file, 'dev-1:c2VjcmV0LWJ1dC10b28tc2hvcnQ=\n');
    const failure = resolveMasterKeys(development());
    await expect(failure).rejects.toThrow(`${file} does not hold a master key`);
    await expect(failure).rejects.not.toThrow('c2VjcmV0');
  });

  it('when NODE_ENV is production, then no development key is ever made', async () => {
    await expect(
      resolveMasterKeys({ NODE_ENV: 'production', BYOK_MASTER_KEYS: undefined, TOLK_DATA_DIR: dataDir }),
    ).rejects.toThrow('BYOK_MASTER_KEYS is required when NODE_ENV=production');
    await expect(stat(dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('starting byok-service', () => {
  it('when NODE_ENV is production and BYOK_MASTER_KEYS is unset, then the process refuses to start, saying why', async () => {
    const result = await promisify(execFile)(
      process.execPath,
      ['--conditions=tolk-source', '--import', 'tsx', 'services/byok-service/src/start.ts'],
      {
        cwd: ROOT,
        env: { PATH: process.env['PATH'], ...required, NODE_ENV: 'production', PORT: '0' },
        timeout: 20_000,
      },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid configuration:');
    expect(result.stderr).toContain('BYOK_MASTER_KEYS: is required when NODE_ENV=production');
  });
});
