import { describe, expect, it } from 'vitest';
import { ConfigError } from '@tolk/config';
import { loadMigrationConfig, loadTokenConfig } from '../src/config.js';

const REQUIRED = {
  DATABASE_URL: 'postgres://tolk@127.0.0.1:5432/tolk',
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
  INTERNAL_JWT_SECRET: 'x'.repeat(32),
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadTokenConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('token-service configuration', () => {
  it('when only the required variables are set, then every other has its default', () => {
    expect(loadTokenConfig(REQUIRED)).toStrictEqual({
      ...REQUIRED,
      PORT: 8085,
      HOST: '127.0.0.1',
      PROJECT_SERVICE_URL: 'http://127.0.0.1:8082',
      PROJECT_SERVICE_TIMEOUT_MS: 5000,
      IDENTITY_SERVICE_URL: 'http://127.0.0.1:8081',
      WRITER_CHECK_TIMEOUT_MS: 2000,
      TOKEN_MAX_PER_PROJECT: 100,
      LOG_LEVEL: 'info',
    });
  });

  it('when every variable is set, then each is taken, the project-service URL without its trailing slash', () => {
    const config = loadTokenConfig({
      ...REQUIRED,
      PORT: '9085',
      HOST: '0.0.0.0',
      PROJECT_SERVICE_URL: 'http://project-service:8082/',
      PROJECT_SERVICE_TIMEOUT_MS: '750',
      IDENTITY_SERVICE_URL: 'http://identity-service:8081/',
      WRITER_CHECK_TIMEOUT_MS: '400',
      TOKEN_MAX_PER_PROJECT: '25',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      PORT: 9085,
      HOST: '0.0.0.0',
      PROJECT_SERVICE_URL: 'http://project-service:8082',
      PROJECT_SERVICE_TIMEOUT_MS: 750,
      IDENTITY_SERVICE_URL: 'http://identity-service:8081',
      WRITER_CHECK_TIMEOUT_MS: 400,
      TOKEN_MAX_PER_PROJECT: 25,
      LOG_LEVEL: 'warn',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('requires exactly DATABASE_URL, AMQP_URL and INTERNAL_JWT_SECRET', () => {
    expect(problemsOf({}).map((p) => p.split(':')[0])).toEqual([
      'DATABASE_URL',
      'AMQP_URL',
      'INTERNAL_JWT_SECRET',
    ]);
  });

  it.each([
    ['DATABASE_URL', 'mysql://x'],
    ['AMQP_URL', 'http://rabbit'],
    ['INTERNAL_JWT_SECRET', 'short'],
    ['PROJECT_SERVICE_URL', 'project-service:8082'],
    ['PROJECT_SERVICE_TIMEOUT_MS', '0'],
    ['IDENTITY_SERVICE_URL', 'identity-service:8081'],
    ['WRITER_CHECK_TIMEOUT_MS', '0'],
    ['TOKEN_MAX_PER_PROJECT', '0'],
    ['TOKEN_MAX_PER_PROJECT', 'many'],
    ['LOG_LEVEL', 'verbose'],
  ])('when %s is %s, then the start fails naming it', (name, value) => {
    const problems = problemsOf({ ...REQUIRED, [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}: `));
  });

  it('when only the database is configured, then `npm run migrate` can still run', () => {
    expect(loadMigrationConfig({ DATABASE_URL: REQUIRED.DATABASE_URL })).toStrictEqual({
      DATABASE_URL: REQUIRED.DATABASE_URL,
      LOG_LEVEL: 'info',
    });
  });
});
