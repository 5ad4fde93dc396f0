import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_AUDIENCE,
  ACCESS_TOKEN_ISSUER,
  generateProjectToken,
  hashProjectToken,
} from '@tolk/contracts';
import { createLogger, renderMetrics } from '@tolk/logger';
import { parsePrometheusText, sampleValue } from '@tolk/testing';
import { createAccessTokenVerifier } from '../src/auth/access-token-verifier.js';
import { createProjectTokenResolver, type TokenPrincipal } from '../src/auth/project-token-resolver.js';

const logger = createLogger({ name: 'gateway-test', level: 'silent' });

/** gateway_token_cache_lookups_total of the in-process caches, by result. */
async function memoryLookups(token: 'access' | 'project') {
  const samples = parsePrometheusText((await renderMetrics()).text);
  const count = (result: string) =>
    sampleValue(samples, 'gateway_token_cache_lookups_total', { token, cache: 'memory', result });
  return { hits: count('hit'), misses: count('miss') };
}

/** A clock the test moves; starts at a real time, as JWT claims are real times. */
function testClock() {
  let at = Date.now();
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

describe('the access token cache', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const sign = (sub: string, expSeconds: number) =>
    jwt.sign({ exp: expSeconds }, privateKey, {
      algorithm: 'ES256',
      subject: sub,
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
      noTimestamp: true,
    });

  it('when a token is verified, then it is remembered until its exp and refused from its exp on', async () => {
    const clock = testClock();
    const verify = createAccessTokenVerifier({ publicKeyPem, cacheSize: 10, now: clock.now });
    const exp = Math.floor(clock.now() / 1000) + 60;
    const token = sign('user-ttl', exp);
    const before = await memoryLookups('access');
    expect(await verify(token)).toEqual({ kind: 'user', userId: 'user-ttl' });
    expect(await verify(token)).toEqual({ kind: 'user', userId: 'user-ttl' });
    expect(await memoryLookups('access')).toEqual({ hits: before.hits + 1, misses: before.misses + 1 });
    clock.advance(exp * 1000 - 1 - clock.now());
    expect(await verify(token)).toEqual({ kind: 'user', userId: 'user-ttl' });
    clock.advance(1);
    await expect(verify(token)).rejects.toThrow(/invalid or expired/);
  });

  it('when more tokens are verified than it holds, then the least recently used is verified again', async () => {
    const clock = testClock();
    const verify = createAccessTokenVerifier({ publicKeyPem, cacheSize: 2, now: clock.now });
    const exp = Math.floor(clock.now() / 1000) + 600;
    const [a, b, c] = ['a', 'b', 'c'].map((sub) => sign(sub, exp));
    await verify(a!);
    await verify(b!);
    await verify(a!); // a is now the most recently used
    await verify(c!); // b goes
    const before = await memoryLookups('access');
    await verify(a!);
    await verify(c!);
    await verify(b!);
    expect(await memoryLookups('access')).toEqual({ hits: before.hits + 2, misses: before.misses + 1 });
  });

  it('when its size is 0, then nothing is remembered, and a deleted user is refused even when cached', async () => {
    const clock = testClock();
    const exp = Math.floor(clock.now() / 1000) + 600;
    const token = sign('user-gone', exp);
    const uncached = createAccessTokenVerifier({ publicKeyPem, cacheSize: 0, now: clock.now });
    const before = await memoryLookups('access');
    await uncached(token);
    await uncached(token);
    expect(await memoryLookups('access')).toEqual({ hits: before.hits, misses: before.misses + 2 });

    const deleted = new Set<string>();
    const verify = createAccessTokenVerifier({
      publicKeyPem,
      cacheSize: 10,
      deletedUsers: deleted,
      now: clock.now,
    });
    await verify(token);
    deleted.add('user-gone');
    await expect(verify(token)).rejects.toThrow(/deleted/);
  });
});

describe('the project token cache (in-process)', () => {
  function resolverWith(options: { localTtlMs: number; localMaxEntries: number }) {
    const clock = testClock();
    const asked: string[] = [];
    const answers = new Map<string, TokenPrincipal | null>();
    const resolver = createProjectTokenResolver({
      introspect: async (tokenHash) => {
        asked.push(tokenHash);
        return answers.get(tokenHash) ?? null;
      },
      keyPrefix: 'unused',
      redisTtlSeconds: 60,
      logger,
      now: clock.now,
      ...options,
    });
    function token(tokenId: string) {
      const value = generateProjectToken();
      const principal: TokenPrincipal = {
        kind: 'project_token',
        tokenId,
        projectId: 'project-1',
        permissions: 'read',
      };
      answers.set(hashProjectToken(value), principal);
      return { value, hash: hashProjectToken(value), principal };
    }
    return { resolver, clock, asked, answers, token };
  }

  it('when a token was resolved, then it is answered from memory for localTtlMs, then asked again', async () => {
    const { resolver, clock, asked, token } = resolverWith({ localTtlMs: 5000, localMaxEntries: 10 });
    const ci = token('tok-ttl');
    expect(await resolver.resolve(ci.value)).toEqual(ci.principal);
    clock.advance(5000);
    expect(await resolver.resolve(ci.value)).toEqual(ci.principal);
    expect(asked).toEqual([ci.hash]);
    clock.advance(1);
    expect(await resolver.resolve(ci.value)).toEqual(ci.principal);
    expect(asked).toEqual([ci.hash, ci.hash]);
  });

  it('holds at most localMaxEntries tokens, unknown ones included', async () => {
    const { resolver, asked, token } = resolverWith({ localTtlMs: 60_000, localMaxEntries: 2 });
    const [a, b, c] = [token('a'), token('b'), token('c')];
    for (const t of [a, b, c, a]) await resolver.resolve(t.value);
    expect(asked).toEqual([a.hash, b.hash, c.hash, a.hash]);
    const unknown = generateProjectToken();
    await expect(resolver.resolve(unknown)).rejects.toThrow(/unknown or has been revoked/);
    await expect(resolver.resolve(unknown)).rejects.toThrow(/unknown or has been revoked/);
    expect(asked.filter((hash) => hash === hashProjectToken(unknown))).toHaveLength(1);
  });

  it('when a token is evicted for a revocation, then an answer racing it is not kept in memory', async () => {
    const { resolver, clock, asked, token } = resolverWith({ localTtlMs: 60_000, localMaxEntries: 10 });
    const ci = token('tok-revoked');
    await resolver.resolve(ci.value);
    resolver.evictLocal(ci.hash);
    // token-service still says yes (the revocation raced it): asked each time, never remembered.
    await resolver.resolve(ci.value);
    await resolver.resolve(ci.value);
    expect(asked).toEqual([ci.hash, ci.hash, ci.hash]);
    // After redisTtlSeconds, no cache can hold a stale answer any more: remembered again.
    clock.advance(60_001);
    await resolver.resolve(ci.value);
    await resolver.resolve(ci.value);
    expect(asked).toHaveLength(4);
  });
});
