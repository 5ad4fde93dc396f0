import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ByokConfig } from './config.js';
import { generateMasterKey, parseMasterKeys, type MasterKeyring } from './domain/master-keys.js';

/** Beside `npm start`'s other development secrets. */
export const DEV_MASTER_KEY_FILE = 'byok-dev-master-key';

export type MasterKeySource =
  | { keyring: MasterKeyring; from: 'environment' }
  | { keyring: MasterKeyring; from: 'development-file'; file: string; generated: boolean };

/**
 * The master keys: BYOK_MASTER_KEYS when set; otherwise, outside production only, a development
 * key generated once under TOLK_DATA_DIR (mode 0600) and reused by every later start, so keys
 * stored in development survive restarts.
 */
export async function resolveMasterKeys(
  config: Pick<ByokConfig, 'NODE_ENV' | 'BYOK_MASTER_KEYS' | 'TOLK_DATA_DIR'>,
): Promise<MasterKeySource> {
  if (config.BYOK_MASTER_KEYS) return { keyring: config.BYOK_MASTER_KEYS, from: 'environment' };
  if (config.NODE_ENV === 'production') {
    // The configuration refuses this already; a key generated on a production host would be
    // lost with its container.
    throw new Error('BYOK_MASTER_KEYS is required when NODE_ENV=production');
  }
  const file = path.resolve(config.TOLK_DATA_DIR, DEV_MASTER_KEY_FILE);
  let text = await readIfExists(file);
  const generated = text === undefined && (await createUnlessExists(file));
  text ??= await readFile(file, 'utf8');
  const parsed = parseMasterKeys(text);
  if ('problems' in parsed) {
    throw new Error(
      `${file} does not hold a master key (${parsed.problems.join('; ')}); ` +
        'restore it, or delete it to generate a new one (keys stored under the old one are then lost)',
    );
  }
  return { keyring: parsed.keyring, from: 'development-file', file, generated };
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Writes a fresh key to `file` unless it exists. Written aside and linked into place, which
 * fails if the file exists: two processes starting at once end up with the same key, and none
 * ever reads a half-written file.
 */
async function createUnlessExists(file: string): Promise<boolean> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const pending = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  // A key id of its own per generated key: a row made under a lost dev key then fails as
  // "master key id not configured", which says what happened.
  await writeFile(pending, `${generateMasterKey(`dev-${randomBytes(4).toString('hex')}`)}\n`, {
    mode: 0o600,
    flag: 'wx',
  });
  try {
    await link(pending, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await unlink(pending);
  }
}
