import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/domain/passwords.js';

/**
 * The median time of each check, measured in turns (a, b, a, b, …) so that whatever else the
 * machine runs meanwhile (other test files, in parallel) slows both alike.
 */
async function medianMsInTurns(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  times = 7,
): Promise<[number, number]> {
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < times; i++) {
    for (const [index, run] of [a, b].entries()) {
      const started = performance.now();
      await run();
      samples[index]!.push(performance.now() - started);
    }
  }
  const median = (values: number[]) => values.sort((x, y) => x - y)[Math.floor(times / 2)]!;
  return [median(samples[0]), median(samples[1])];
}

describe('password hashing', () => {
  it('when a password is hashed, then the hash is self-describing, salted and verifies', async () => {
    const [a, b] = await Promise.all([hashPassword('swordfish-123'), hashPassword('swordfish-123')]);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('swordfish-123', a)).toBe(true);
    expect(await verifyPassword('swordfish-124', a)).toBe(false);
  });

  it('when a hash was made with other parameters, then it still verifies with its own', async () => {
    // scrypt$N=16384$r=8$p=1 of "legacy-password" with a fixed salt.
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.alloc(16, 7);
    const hash = scryptSync('legacy-password', salt, 32, { N: 16384, r: 8, p: 1 });
    const stored = `scrypt$16384$8$1$${salt.toString('base64url')}$${hash.toString('base64url')}`;
    expect(await verifyPassword('legacy-password', stored)).toBe(true);
    expect(await verifyPassword('other-password', stored)).toBe(false);
  });

  it('when the stored hash is missing or unreadable, then the answer is false', async () => {
    expect(await verifyPassword('anything-at-all', undefined)).toBe(false);
    expect(await verifyPassword('anything-at-all', 'bcrypt$whatever')).toBe(false);
  });

  it('when there is no account, then checking takes about as long as a real check', async () => {
    const stored = await hashPassword('the-real-password');
    const [real, missing] = await medianMsInTurns(
      () => verifyPassword('a-wrong-password', stored),
      () => verifyPassword('a-wrong-password', undefined),
    );
    expect(missing).toBeGreaterThan(real * 0.5);
  });
});
