import { describe, expect, it } from 'vitest';
import { ConfigError } from '@tolk/config';
import { loadMigrationConfig, loadProjectConfig } from '../src/config.js';

const required = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/tolk',
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
  INTERNAL_JWT_SECRET: 'x'.repeat(32),
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadProjectConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('project-service configuration', () => {
  it('when only the required values are set, then every default applies', () => {
    const config = loadProjectConfig(required);
    expect(config).toEqual({
      ...required,
      PORT: 8082,
      HOST: '127.0.0.1',
      IDENTITY_SERVICE_URL: 'http://127.0.0.1:8081',
      IDENTITY_SERVICE_TIMEOUT_MS: 5000,
      TOKEN_SERVICE_URL: 'http://127.0.0.1:8085',
      WRITER_CHECK_TIMEOUT_MS: 2000,
      SOURCE_SERVICE_URL: 'http://127.0.0.1:8083',
      SOURCE_SERVICE_TIMEOUT_MS: 5000,
      KEY_RULES_BUDGET: 100_000_000,
      GLOSSARY_IMPORTS_AT_ONCE: 2,
      GLOSSARY_IMPORT_TIMEOUT_MS: 20_000,
      LOG_LEVEL: 'info',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('when the identity-service URL ends in a slash, then the slash is dropped', () => {
    const config = loadProjectConfig({ ...required, IDENTITY_SERVICE_URL: 'http://identity-service:8081/' });
    expect(config.IDENTITY_SERVICE_URL).toBe('http://identity-service:8081');
  });

  it('requires exactly DATABASE_URL, AMQP_URL and INTERNAL_JWT_SECRET', () => {
    expect(
      problemsOf({})
        .map((p) => p.split(':')[0])
        .sort(),
    ).toEqual(['AMQP_URL', 'DATABASE_URL', 'INTERNAL_JWT_SECRET']);
  });

  it('when values are malformed, then each is named', () => {
    const problems = problemsOf({
      DATABASE_URL: 'mysql://db',
      AMQP_URL: 'http://rabbit',
      INTERNAL_JWT_SECRET: 'short',
      IDENTITY_SERVICE_URL: 'identity:8081',
      IDENTITY_SERVICE_TIMEOUT_MS: '0',
      TOKEN_SERVICE_URL: 'token:8085',
      WRITER_CHECK_TIMEOUT_MS: '-1',
      PORT: 'eighty',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'AMQP_URL',
      'DATABASE_URL',
      'IDENTITY_SERVICE_TIMEOUT_MS',
      'IDENTITY_SERVICE_URL',
      'INTERNAL_JWT_SECRET',
      'PORT',
      'TOKEN_SERVICE_URL',
      'WRITER_CHECK_TIMEOUT_MS',
    ]);
  });

  it('when migrating, then only DATABASE_URL is needed', () => {
    expect(loadMigrationConfig({ DATABASE_URL: required.DATABASE_URL })).toEqual({
      DATABASE_URL: required.DATABASE_URL,
      LOG_LEVEL: 'info',
    });
  });
});
