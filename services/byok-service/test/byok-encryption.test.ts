import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_PROVIDERS } from '@tolk/contracts';
import { createLogger } from '@tolk/logger';
import { createKeyCipher, UnreadableKeyError } from '../src/domain/key-cipher.js';
import {
  encodingsOf,
  expectError,
  keyring,
  masterKey,
  providerKey,
  startByokService,
  type ByokService,
  type Response,
} from './byok-harness.js';

let service: ByokService;

beforeAll(async () => {
  service = await startByokService({ masterKeys: masterKey('k1') });
});
afterAll(async () => {
  await service?.close();
});

const key = providerKey;

function expectInternalErrorWithoutKeys(response: Response, keys: string[]): void {
  expectError(response, 500, 'INTERNAL_ERROR');
  expect(response.body.error.message).toBe('Internal error; quote the request id when reporting it');
  for (const apiKey of keys) expect(response.text).not.toContain(apiKey);
}

/** The error lines logged for a request, by its id. */
function errorLinesOf(response: Response): Record<string, any>[] {
  const requestId = response.headers.get('x-request-id');
  return service.logLines
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((entry) => entry['requestId'] === requestId && entry['level'] >= 50);
}

describe('keys at rest', () => {
  it('when a key is stored, then its row holds AES-256-GCM ciphertext under the active key id, a 12-byte nonce, a 16-byte tag and the hint', async () => {
    const user = await service.newUser();
    const apiKey = key('sk-proj-');
    await service.put(user.as, 'openai', apiKey);

    const row = await service.row(user.userId, 'openai');
    expect(row).toMatchObject({ key_id: 'k1', hint: apiKey.slice(-4) });
    expect(row!.nonce).toHaveLength(12);
    expect(row!.tag).toHaveLength(16);
    // GCM is a stream mode: the ciphertext is as long as the key's UTF-8 bytes, and is not them.
    expect(row!.ciphertext).toHaveLength(Buffer.byteLength(apiKey));
    expect(row!.ciphertext.equals(Buffer.from(apiKey))).toBe(false);
  });

  it('when the same key is stored twice, or by two users, then every ciphertext and nonce differs', async () => {
    const alice = await service.newUser();
    const bob = await service.newUser();
    const apiKey = key();

    await service.put(alice.as, 'anthropic', apiKey);
    const first = await service.row(alice.userId, 'anthropic');
    await service.put(alice.as, 'anthropic', apiKey);
    const second = await service.row(alice.userId, 'anthropic');
    await service.put(bob.as, 'anthropic', apiKey);
    const bobs = await service.row(bob.userId, 'anthropic');

    const ciphertexts = [first!, second!, bobs!].map((row) => row.ciphertext.toString('hex'));
    const nonces = [first!, second!, bobs!].map((row) => row.nonce.toString('hex'));
    expect(new Set(ciphertexts).size).toBe(3);
    expect(new Set(nonces).size).toBe(3);
    for (const user of [alice, bob]) {
      const read = await service.call('GET', '/v1/user/byok/anthropic', { as: user.as });
      expect(read.body).toStrictEqual({ hasKey: true, apiKey });
    }
  });

  it('when the byok schema is dumped as text, then no stored key appears in it in any encoding', async () => {
    const alice = await service.newUser();
    const bob = await service.newUser();
    const keys = AI_PROVIDERS.map((provider) => key(`${provider}-`));
    for (const [index, provider] of AI_PROVIDERS.entries()) {
      await service.put(alice.as, provider, keys[index]);
      await service.put(bob.as, provider, keys[index]);
    }
    // Replaced once: no earlier value lingers either.
    const replaced = keys[0]!;
    keys.push(key());
    await service.put(alice.as, 'openai', keys.at(-1));

    const dump = await service.dumpSchema();
    // The dump holds every row: the check below looks at real data.
    expect(dump.match(new RegExp(alice.userId, 'g'))).toHaveLength(AI_PROVIDERS.length);
    expect(dump.match(new RegExp(bob.userId, 'g'))).toHaveLength(AI_PROVIDERS.length);
    expect(dump).toContain('0001_init.sql');
    for (const apiKey of [...keys, replaced]) {
      for (const encoded of encodingsOf(apiKey)) expect(dump).not.toContain(encoded);
    }
  });
});

describe('ciphertexts that do not belong to their row', () => {
  it("when two users' ciphertexts are swapped in the database, then neither reads anything back: 500, an error logged without the keys", async () => {
    const alice = await service.newUser();
    const bob = await service.newUser();
    const alicesKey = key();
    const bobsKey = key();
    await service.put(alice.as, 'openai', alicesKey);
    await service.put(bob.as, 'openai', bobsKey);

    await service.db.query(
      `UPDATE provider_keys AS target
          SET key_id = source.key_id, nonce = source.nonce, ciphertext = source.ciphertext, tag = source.tag
         FROM provider_keys AS source
        WHERE target.provider = 'openai' AND source.provider = 'openai'
          AND ((target.user_id = $1 AND source.user_id = $2) OR (target.user_id = $2 AND source.user_id = $1))`,
      [alice.userId, bob.userId],
    );
    // Swapped indeed: Alice's row now holds what Bob's held.
    const swapped = await service.row(alice.userId, 'openai');
    expect(swapped!.ciphertext).toHaveLength(Buffer.byteLength(bobsKey));

    for (const user of [alice, bob]) {
      const response = await service.call('GET', '/v1/user/byok/openai', { as: user.as });
      expectInternalErrorWithoutKeys(response, [alicesKey, bobsKey]);
      const logged = errorLinesOf(response);
      expect(logged).toHaveLength(1);
      expect(logged[0]!['err']).toMatchObject({
        type: 'UnreadableKeyError',
        userId: user.userId,
        provider: 'openai',
        keyId: 'k1',
        message: expect.stringContaining('authentication failed'),
      });
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it("when a user's ciphertexts of two providers are swapped, then neither reads back", async () => {
    const user = await service.newUser();
    const googleKey = key('AIza-');
    const mistralKey = key('mistral-');
    await service.put(user.as, 'google', googleKey);
    await service.put(user.as, 'mistral', mistralKey);
    await service.db.query(
      `UPDATE provider_keys AS target
          SET nonce = source.nonce, ciphertext = source.ciphertext, tag = source.tag
         FROM provider_keys AS source
        WHERE target.user_id = $1 AND source.user_id = $1 AND target.provider <> source.provider
          AND target.provider IN ('google', 'mistral') AND source.provider IN ('google', 'mistral')`,
      [user.userId],
    );
    for (const provider of ['google', 'mistral']) {
      const response = await service.call('GET', `/v1/user/byok/${provider}`, { as: user.as });
      expectInternalErrorWithoutKeys(response, [googleKey, mistralKey]);
    }
  });

  it.each([
    [
      'one bit of the ciphertext is flipped',
      `ciphertext = set_byte(ciphertext, 0, get_byte(ciphertext, 0) # 1)`,
    ],
    ['the tag is altered', `tag = set_byte(tag, 15, get_byte(tag, 15) # 128)`],
    ['the nonce is altered', `nonce = set_byte(nonce, 0, get_byte(nonce, 0) # 1)`],
    ['the ciphertext is cut short', `ciphertext = substring(ciphertext from 1 for 5)`],
  ])('when %s, then 500 and nothing of the key', async (_case, change) => {
    const user = await service.newUser();
    const apiKey = key();
    await service.put(user.as, 'deepseek', apiKey);
    await service.db.query(`UPDATE provider_keys SET ${change} WHERE user_id = $1`, [user.userId]);
    const response = await service.call('GET', '/v1/user/byok/deepseek', { as: user.as });
    expectInternalErrorWithoutKeys(response, [apiKey]);
    expect(errorLinesOf(response)).toHaveLength(1);
  });

  it('when the master key id of a row is not configured, then 500 (fail closed), the log naming the key id', async () => {
    const user = await service.newUser();
    const apiKey = key();
    await service.put(user.as, 'openrouter', apiKey);
    await service.db.query(`UPDATE provider_keys SET key_id = 'retired-2023' WHERE user_id = $1`, [
      user.userId,
    ]);

    const response = await service.call('GET', '/v1/user/byok/openrouter', { as: user.as });
    expectInternalErrorWithoutKeys(response, [apiKey]);
    expect(errorLinesOf(response)[0]!['err']).toMatchObject({
      type: 'UnreadableKeyError',
      keyId: 'retired-2023',
      message: expect.stringContaining('master key id "retired-2023" is not configured'),
    });
  });

  it('when a row cannot be decrypted, then the list still shows it, and a new PUT or a DELETE repairs it', async () => {
    const user = await service.newUser();
    await service.put(user.as, 'openai', key());
    await service.put(user.as, 'anthropic', key());
    await service.db.query(`UPDATE provider_keys SET key_id = 'gone' WHERE user_id = $1`, [user.userId]);

    const list = await service.call('GET', '/v1/user/byok', { as: user.as });
    expect(list.status).toBe(200);
    expect(list.body.keys.filter((k: { hasKey: boolean }) => k.hasKey)).toHaveLength(2);

    const replacement = key();
    await service.put(user.as, 'openai', replacement);
    expect((await service.call('GET', '/v1/user/byok/openai', { as: user.as })).body.apiKey).toBe(
      replacement,
    );
    expect((await service.call('DELETE', '/v1/user/byok/anthropic', { as: user.as })).status).toBe(204);
    expect((await service.call('GET', '/v1/user/byok/anthropic', { as: user.as })).body.hasKey).toBe(false);
  });
});

describe('the cipher', () => {
  const owner = { userId: 'usr_1', provider: 'openai' } as const;

  it('when a ciphertext is opened as another owner, then UnreadableKeyError whose message holds no key', () => {
    const cipher = createKeyCipher(keyring(masterKey('a')));
    const sealed = cipher.seal(owner, 'sk-cipher-unit-test-key');
    expect(cipher.open(owner, sealed)).toBe('sk-cipher-unit-test-key');
    for (const other of [
      { userId: 'usr_2', provider: 'openai' },
      { userId: 'usr_1', provider: 'anthropic' },
      // The associated data cannot be shifted between user id and provider.
      { userId: 'usr_1","openai', provider: 'openai' },
    ] as const) {
      let thrown: unknown;
      try {
        cipher.open(other, sealed);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(UnreadableKeyError);
      expect(JSON.stringify(thrown) + String(thrown)).not.toContain('sk-cipher');
    }
  });

  it('when a ciphertext was made under another master key with the same id, then it does not open', () => {
    const sealed = createKeyCipher(keyring(masterKey('same'))).seal(owner, 'sk-cipher-unit-test-key');
    expect(() => createKeyCipher(keyring(masterKey('same'))).open(owner, sealed)).toThrow(UnreadableKeyError);
  });

  it('when the keyring or the cipher is logged or serialised, then no key bytes show', () => {
    const text = masterKey('a');
    const base64 = text.slice(2);
    const ring = keyring(text);
    const lines: string[] = [];
    const logger = createLogger(
      { name: 'test' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString('utf8'));
          done();
        },
      }),
    );
    logger.info({ ring, active: ring.active, keys: [...ring.byId.values()] }, 'keyring');
    const hex = Buffer.from(base64, 'base64').toString('hex');
    for (const shown of [lines.join(''), JSON.stringify(ring.active), String(ring.active.key)]) {
      expect(shown).not.toContain(base64);
      expect(shown).not.toContain(hex);
    }
  });
});

describe('logs', () => {
  it('when a line carries an apiKey, at the top or one level down, then the logger redacts it', () => {
    const lines: string[] = [];
    const logger = createLogger(
      { name: 'test', level: 'debug' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString('utf8'));
          done();
        },
      }),
    );
    logger.info({ apiKey: 'sk-top-level-secret', body: { apiKey: 'sk-nested-secret' } }, 'store');
    expect(lines.join('')).not.toContain('secret');
    expect(JSON.parse(lines[0]!)).toMatchObject({ apiKey: '[redacted]', body: { apiKey: '[redacted]' } });
  });

  it('when keys are stored, read, listed, replaced, refused, deleted and fail to decrypt, then no log line holds any of them', async () => {
    const from = service.logLines.length;
    const alice = await service.newUser();
    const bob = await service.newUser();
    const keys = AI_PROVIDERS.map((provider) => key(`${provider}-`));
    for (const [index, provider] of AI_PROVIDERS.entries()) {
      await service.put(alice.as, provider, keys[index]);
      await service.call('GET', `/v1/user/byok/${provider}`, { as: alice.as });
    }
    await service.call('GET', '/v1/user/byok', { as: alice.as });
    keys.push(key());
    await service.put(alice.as, 'openai', keys.at(-1));
    // Refused bodies holding a key: a control character inside, a key too long.
    keys.push(key());
    await service.put(alice.as, 'openai', `${keys.at(-1)}\u0000`);
    keys.push(`${key()}${'z'.repeat(4096)}`);
    await service.put(alice.as, 'openai', keys.at(-1));
    // A project token's attempt, an unknown provider.
    keys.push(key());
    await service.put(await service.asProjectToken(), 'openai', keys.at(-1));
    await service.put(alice.as, 'acme', keys.at(-1));
    // Two keys that fail to decrypt once swapped.
    keys.push(key());
    await service.put(bob.as, 'anthropic', keys.at(-1));
    await service.db.query(
      `UPDATE provider_keys AS target
          SET nonce = source.nonce, ciphertext = source.ciphertext, tag = source.tag
         FROM provider_keys AS source
        WHERE target.provider = 'anthropic' AND source.provider = 'anthropic'
          AND target.user_id IN ($1, $2) AND source.user_id IN ($1, $2) AND target.user_id <> source.user_id`,
      [alice.userId, bob.userId],
    );
    for (const user of [alice, bob]) {
      expectError(
        await service.call('GET', '/v1/user/byok/anthropic', { as: user.as }),
        500,
        'INTERNAL_ERROR',
      );
    }
    await service.call('DELETE', '/v1/user/byok/openai', { as: alice.as });

    const lines = service.logLines.slice(from);
    // The capture works: every request left its line, the failures their error lines.
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((entry) => entry['msg'] === 'request').length).toBeGreaterThanOrEqual(20);
    expect(entries.filter((entry) => entry['msg'] === 'request failed')).toHaveLength(2);
    const text = service.logLines.join('\n');
    for (const apiKey of keys) {
      for (const encoded of encodingsOf(apiKey)) expect(text).not.toContain(encoded);
    }
  });
});
