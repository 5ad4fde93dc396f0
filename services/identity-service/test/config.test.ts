import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@tolk/config';
import { loadIdentityConfig, loadMigrationConfig } from '../src/config.js';

function pem(key: ReturnType<typeof generateKeyPairSync>['privateKey']): string {
  return key.export({ type: 'pkcs8', format: 'pem' }).toString();
}

const p256 = pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);

const required = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/tolk',
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
  INTERNAL_JWT_SECRET: 'x'.repeat(32),
  JWT_PRIVATE_KEY: p256,
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadIdentityConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('identity-service configuration', () => {
  it('when only the required values are set, then every default applies', () => {
    const config = loadIdentityConfig(required);
    expect(config).toEqual({
      ...required,
      PORT: 8081,
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://localhost:8080',
      ACCESS_TOKEN_TTL_SECONDS: 900,
      REFRESH_TOKEN_TTL_SECONDS: 30 * 24 * 60 * 60,
      DEVICE_CODE_TTL_SECONDS: 900,
      DEVICE_POLL_INTERVAL_SECONDS: 5,
      PROJECT_SERVICE_URL: 'http://127.0.0.1:8082',
      PROJECT_SERVICE_TIMEOUT_MS: 5000,
      PASSWORD_SCRYPT_N: 32768,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('when the key comes on one line with \\n escapes and PUBLIC_URL ends in a slash, then both are normalised', () => {
    const config = loadIdentityConfig({
      ...required,
      JWT_PRIVATE_KEY: p256.replace(/\n/g, '\\n'),
      PUBLIC_URL: 'https://tolk.example/',
    });
    expect(config.JWT_PRIVATE_KEY).toBe(p256);
    expect(config.PUBLIC_URL).toBe('https://tolk.example');
  });

  it('requires exactly DATABASE_URL, AMQP_URL, INTERNAL_JWT_SECRET and JWT_PRIVATE_KEY', () => {
    const problems = problemsOf({});
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'AMQP_URL',
      'DATABASE_URL',
      'INTERNAL_JWT_SECRET',
      'JWT_PRIVATE_KEY',
    ]);
  });

  it('when the secret is short and the key is not P-256, then both are named', () => {
    const rsa = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    const p384 = pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey);
    for (const key of [rsa, p384, '-----BEGIN PRIVATE KEY-----\ngarbage\n-----END PRIVATE KEY-----']) {
      const problems = problemsOf({ ...required, INTERNAL_JWT_SECRET: 'short', JWT_PRIVATE_KEY: key });
      expect(problems).toEqual([
        expect.stringMatching(/^INTERNAL_JWT_SECRET: must be at least 32 characters/),
        expect.stringMatching(/^JWT_PRIVATE_KEY: must be a PEM-encoded EC P-256 private key/),
      ]);
    }
  });

  it('when a number or URL is malformed, then it is named', () => {
    const problems = problemsOf({
      ...required,
      PORT: 'eighty',
      ACCESS_TOKEN_TTL_SECONDS: '-1',
      PUBLIC_URL: 'tolk.example',
      DATABASE_URL: 'mysql://db',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'ACCESS_TOKEN_TTL_SECONDS',
      'DATABASE_URL',
      'PORT',
      'PUBLIC_URL',
    ]);
  });

  it("when the password cost is no power of two, or below production's in production, then it is named", () => {
    expect(problemsOf({ ...required, PASSWORD_SCRYPT_N: '1000' })).toEqual([
      'PASSWORD_SCRYPT_N: must be a power of two, at least 1024',
    ]);
    expect(loadIdentityConfig({ ...required, PASSWORD_SCRYPT_N: '1024' }).PASSWORD_SCRYPT_N).toBe(1024);
    expect(problemsOf({ ...required, PASSWORD_SCRYPT_N: '1024', NODE_ENV: 'production' })).toEqual([
      'PASSWORD_SCRYPT_N: must be at least 32768 when NODE_ENV is production',
    ]);
  });

  it('when migrating, then only DATABASE_URL is needed', () => {
    expect(loadMigrationConfig({ DATABASE_URL: required.DATABASE_URL })).toEqual({
      DATABASE_URL: required.DATABASE_URL,
      LOG_LEVEL: 'info',
    });
  });
});
