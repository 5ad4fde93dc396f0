import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, env, loadConfig } from '@tolk/config';

describe('loadConfig', () => {
  const schema = z.object({
    PORT: env.port(8080),
    DATABASE_URL: env.url(['postgres']),
    SECRET: env.secret(),
  });

  it('when several variables are wrong, then one error lists every problem', () => {
    let error: unknown;
    try {
      loadConfig(schema, { PORT: 'eighty', DATABASE_URL: 'mysql://x', SECRET: 'short' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/^PORT:/m);
    expect(problems).toMatch(/^DATABASE_URL: must be a URL starting with postgres:\/\//m);
    expect(problems).toMatch(/^SECRET: must be at least 32 characters/m);
  });

  it('when required variables are missing, then one error names every one, in the order of the schema', () => {
    let error: unknown;
    try {
      loadConfig(schema, {});
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'DATABASE_URL: is required but not set',
      'SECRET: is required but not set',
    ]);
  });

  it('when valid, then defaults apply and the result is frozen', () => {
    const config = loadConfig(schema, { DATABASE_URL: 'postgres://db/tolk', SECRET: 'x'.repeat(32) });
    expect(config.PORT).toBe(8080);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('accepts PEM keys written on one line with \\n escapes', () => {
    const pem = loadConfig(z.object({ KEY: env.pem() }), {
      KEY: '-----BEGIN PUBLIC KEY-----\\nabc\\n-----END PUBLIC KEY-----',
    });
    expect(pem.KEY).toBe('-----BEGIN PUBLIC KEY-----\nabc\n-----END PUBLIC KEY-----');
  });
});
