import { randomBytes, randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { PRINCIPAL_HEADER, type AiProvider, type EventEnvelope, type Principal } from '@tolk/contracts';
import type { Db } from '@tolk/db';
import { createPrincipalSigner } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { consumedFlags, listen, openTestBroker, openTestDatabase, request } from '@tolk/testing';
import { openService } from '@tolk/service';
import { createKeysRepository } from '../src/data-access/keys-repository.js';
import { createKeyCipher } from '../src/domain/key-cipher.js';
import { rotateMasterKey } from '../src/domain/key-rotation.js';
import { generateMasterKey, parseMasterKeys, type MasterKeyring } from '../src/domain/master-keys.js';
import { byokService } from '../src/index.js';

export const INTERNAL_SECRET = 'test-internal-secret-that-is-long-enough';

export type Response = Awaited<ReturnType<typeof request>>;
type Headers = Record<string, string>;

/** `kid:base64key` with a fresh random key. */
export const masterKey = generateMasterKey;

export function keyring(masterKeys: string): MasterKeyring {
  const parsed = parseMasterKeys(masterKeys);
  if ('problems' in parsed) throw new Error(parsed.problems.join('; '));
  return parsed.keyring;
}

/** A provider key no other test uses, shaped like a real one. */
export function providerKey(prefix = 'sk-test-'): string {
  return `${prefix}${randomBytes(24).toString('base64url')}`;
}

export function userId(): string {
  return `usr_${randomUUID().replaceAll('-', '')}`;
}

/**
 * byok-service as it runs: a database of its own with the byok schema migrated, the app
 * listening on an ephemeral port with the master keys `masterKeys` (kid:base64key,...), every
 * log line kept. `serve` starts another instance on the same database with other master keys
 * (after a rotation, say).
 */
export async function startByokService(options: { masterKeys?: string } = {}) {
  const database = await openTestDatabase();
  const db: Db = database.db(byokService.schema);

  // Every log line is kept so tests can show that no provider key reaches the logs.
  const logLines: string[] = [];
  const logger = createLogger(
    { name: 'byok-service', level: 'debug' },
    { write: (line: string) => void logLines.push(line) },
  );
  // The consumer of UserDeleted, on a queue of this test file's own.
  const broker = await openTestBroker({ logger });
  const bus = broker.bus({ logger, producer: 'byok-service' });
  const queue = `byok-service-test-${randomUUID()}`;

  const env = (masterKeys: string) => ({
    DATABASE_URL: database.url,
    AMQP_URL: 'amqp://127.0.0.1:5672',
    INTERNAL_JWT_SECRET: INTERNAL_SECRET,
    BYOK_MASTER_KEYS: masterKeys,
  });
  const service = await openService(byokService, {
    env: env(options.masterKeys ?? masterKey('k1')),
    db,
    bus,
    logger,
  });
  await service.consume(queue);

  const servers: Awaited<ReturnType<typeof listen>>[] = [];
  async function serve(app: Express) {
    const server = await listen(app);
    servers.push(server);
    return {
      url: server.url,
      call: (method: string, path: string, init: { as?: Headers; body?: unknown; rawBody?: string } = {}) =>
        request(`${server.url}${path}`, { method, headers: init.as, body: init.body, rawBody: init.rawBody }),
    };
  }
  const main = await serve(service.app);
  const signPrincipal = createPrincipalSigner(INTERNAL_SECRET);

  async function principal(p: Principal): Promise<Headers> {
    return { [PRINCIPAL_HEADER]: await signPrincipal(p) };
  }

  return {
    url: main.url,
    db,
    logLines,
    call: main.call,
    /** Another instance on the same database, with other master keys (kid:base64key,...). */
    async serve(masterKeys: string) {
      const { app } = await openService(byokService, { env: env(masterKeys), db, bus, logger });
      return serve(app);
    },

    as: (id: string) => principal({ kind: 'user', userId: id }),
    /** A fresh user and the headers that sign their requests. */
    async newUser() {
      const id = userId();
      return { userId: id, as: await principal({ kind: 'user', userId: id }) };
    },
    asProjectToken: () =>
      principal({
        kind: 'project_token',
        tokenId: `tok_${randomUUID().replaceAll('-', '')}`,
        projectId: `prj_${randomUUID().replaceAll('-', '')}`,
        permissions: 'read_write',
      }),

    /** Publishes an event as another service would (identity-service's UserDeleted). */
    async publish(type: string, data: Record<string, unknown>, id: string = randomUUID()) {
      const envelope: EventEnvelope = { id, type, occurredAt: Date.now(), producer: 'test', data };
      await bus.publish(envelope);
      return envelope;
    },

    /** Whether the consumer applied the event (true) or skipped it as a duplicate (false), per delivery. */
    consumed: (eventId: string) => consumedFlags(logLines, eventId),

    /** Stores a key through the API; answers the response. */
    put(as: Headers, provider: string, apiKey: unknown) {
      return main.call('PUT', `/v1/user/byok/${provider}`, { as, body: { apiKey } });
    },

    /** The stored row of a key, as the database holds it. */
    async row(user: string, provider: AiProvider) {
      const { rows } = await db.query<{
        key_id: string;
        nonce: Buffer;
        ciphertext: Buffer;
        tag: Buffer;
        hint: string;
        updated_at: Date;
      }>(
        `SELECT key_id, nonce, ciphertext, tag, hint, updated_at FROM provider_keys
          WHERE user_id = $1 AND provider = $2`,
        [user, provider],
      );
      return rows[0];
    },

    /** Every row of every table of the byok schema, as Postgres prints it (bytea as hex). */
    async dumpSchema(): Promise<string> {
      const { rows: tables } = await db.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
        [byokService.schema],
      );
      const lines: string[] = [];
      for (const { table_name } of tables) {
        const { rows } = await db.query<{ line: string }>(
          `SELECT t::text AS line FROM ${byokService.schema}."${table_name}" t`,
        );
        lines.push(`-- ${table_name}`, ...rows.map((row) => row.line));
      }
      return lines.join('\n');
    },

    /** The rotation `npm run byok:rotate` runs, on this database, with `masterKeys`. */
    rotate(masterKeys: string, batchSize?: number) {
      return rotateMasterKey({
        db,
        keys: createKeysRepository(db),
        cipher: createKeyCipher(keyring(masterKeys)),
        batchSize,
      });
    },

    databaseUrl: database.url,

    async close() {
      await Promise.all(servers.map((server) => server.close()));
      await bus.close();
      await broker.deleteQueues([queue]);
      await broker.close();
      await db.close();
      await database.drop();
    },
  };
}

export type ByokService = Awaited<ReturnType<typeof startByokService>>;

/** The forms in which a key could sit in a dump or a log line if it were ever stored or logged. */
export function encodingsOf(apiKey: string): string[] {
  const bytes = Buffer.from(apiKey, 'utf8');
  return [apiKey, bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')];
}

export { expectError } from '@tolk/testing';
