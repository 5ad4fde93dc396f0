import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@tolk/config';
import { loadGatewayConfig } from '../src/config.js';
import { INTERNAL_SECRET, identityKeys } from './support.js';

const REQUIRED = { JWT_PUBLIC_KEY: identityKeys.publicKeyPem, INTERNAL_JWT_SECRET: INTERNAL_SECRET };

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadGatewayConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('gateway configuration', () => {
  it('when only the secrets are given, then the defaults apply and no service is routed', () => {
    const config = loadGatewayConfig(REQUIRED);

    expect(config).toMatchObject({
      PORT: 8080,
      HOST: '127.0.0.1',
      MAX_BODY_BYTES: 10 * 1024 * 1024 + 64 * 1024,
      UPSTREAM_TIMEOUT_MS: 30_000,
      TRUST_PROXY: false,
      UPSTREAMS: {},
    });
    expect(config.REDIS_URL).toBeUndefined();
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('when SERVICE_URLS is JSON or name=url pairs, then both give the same upstreams', () => {
    const fromJson = loadGatewayConfig({
      ...REQUIRED,
      SERVICE_URLS: '{"identity":"http://identity:8081/","source":"http://source:8083"}',
    });
    const fromPairs = loadGatewayConfig({
      ...REQUIRED,
      SERVICE_URLS: 'identity=http://identity:8081/, source=http://source:8083',
    });

    expect(fromJson.UPSTREAMS).toEqual({ identity: 'http://identity:8081', source: 'http://source:8083' });
    expect(fromPairs.UPSTREAMS).toEqual(fromJson.UPSTREAMS);
  });

  it('when a service has its own variable, then it wins over SERVICE_URLS', () => {
    const config = loadGatewayConfig({
      ...REQUIRED,
      SERVICE_URLS: 'identity=http://old:8081,byok=http://byok:8086',
      IDENTITY_SERVICE_URL: 'http://new:8081',
      TOKEN_SERVICE_URL: 'http://token:8085',
      PROJECT_SERVICE_URL: '',
    });

    expect(config.UPSTREAMS).toEqual({
      identity: 'http://new:8081',
      byok: 'http://byok:8086',
      token: 'http://token:8085',
    });
  });

  it('when JWT_PUBLIC_KEY is missing and SERVICE_URLS names a service Tolk has not, then both are named', () => {
    const problems = problemsOf({
      INTERNAL_JWT_SECRET: 'x'.repeat(32),
      SERVICE_URLS: 'identity=http://identity:8081,billing=http://billing',
    });

    expect(problems).toEqual([
      'JWT_PUBLIC_KEY: is required but not set',
      expect.stringMatching(/^SERVICE_URLS: unknown service billing/),
    ]);
  });

  it('when the public key is not an ES256 key, then the start is refused', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();

    expect(problemsOf({ ...REQUIRED, JWT_PUBLIC_KEY: rsa })).toEqual([
      'JWT_PUBLIC_KEY: must be a PEM-encoded EC P-256 public key (ES256)',
    ]);
  });

  it('when the key comes on one line with \\n escapes, then it is accepted', () => {
    const oneLine = identityKeys.publicKeyPem.replace(/\n/g, '\\n');
    expect(problemsOf({ ...REQUIRED, JWT_PUBLIC_KEY: oneLine })).toEqual([]);
  });

  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['10.0.0.0/8, 127.0.0.1', '10.0.0.0/8, 127.0.0.1'],
  ])('when TRUST_PROXY is %s, then express gets %s', (value, expected) => {
    expect(loadGatewayConfig({ ...REQUIRED, TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });
});
