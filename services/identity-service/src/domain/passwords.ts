import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's cost: N (CPU and memory), r (block size), p (parallelism). */
export type ScryptParams = { N: number; r: number; p: number };

/**
 * The cost of new hashes: about 100 ms on one core of a small server. Stored hashes carry their
 * own parameters, so raising it later leaves existing passwords valid.
 */
export const PASSWORD_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;
// Salt used only to spend the time of a real check when there is no stored hash.
const DUMMY_SALT = Buffer.alloc(SALT_LENGTH);

function derive(password: string, salt: Buffer, params: ScryptParams, keyLength: number): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(
  password: string,
  params: ScryptParams = PASSWORD_SCRYPT_PARAMS,
): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const hash = await derive(password, salt, params, KEY_LENGTH);
  const { N, r, p } = params;
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/**
 * Checks a password against a stored hash in constant time. Without a stored hash (unknown
 * account) it still spends the time of one check at the cost new hashes get (`params`) and
 * answers false, so timing does not tell whether an account exists.
 */
export async function verifyPassword(
  password: string,
  stored: string | undefined,
  params: ScryptParams = PASSWORD_SCRYPT_PARAMS,
): Promise<boolean> {
  const match = stored === undefined ? null : FORMAT.exec(stored);
  if (!match) {
    await derive(password, DUMMY_SALT, params, KEY_LENGTH);
    return false;
  }
  const [, N, r, p, salt, hash] = match as unknown as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    { N: Number(N), r: Number(r), p: Number(p) },
    expected.length,
  );
  return timingSafeEqual(actual, expected);
}
