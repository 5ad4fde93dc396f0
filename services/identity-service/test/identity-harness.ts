import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { expect } from 'vitest';
import { INTERNAL_CALLER_HEADER, PRINCIPAL_HEADER, type Principal } from '@tolk/contracts';
import type { Db } from '@tolk/db';
import { createInternalCallerSigner, createPrincipalSigner } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { TEST_PASSWORD_SCRYPT_N, listen, openTestBroker, openTestDatabase, request } from '@tolk/testing';
import { openService } from '@tolk/service';
import { identityService } from '../src/index.js';

export const INTERNAL_SECRET = 'test-internal-secret-that-is-long-enough';
export const PUBLIC_URL = 'https://tolk.example';
export const PASSWORD = 'correct horse battery staple';

type Response = Awaited<ReturnType<typeof request>>;

/**
 * identity-service as it runs: a database of its own, migrated at start, the outbox relayed to
 * RabbitMQ, the app listening on an ephemeral port, a fresh ES256 key pair and a clock the test
 * can move forward. No project-service runs beside it: `projectServiceUrl` names one (by default
 * a port nothing listens on). Passwords are hashed at the test systems' cost
 * (TEST_PASSWORD_SCRYPT_N) unless `productionPasswordCost`.
 */
export async function startIdentityService(
  options: { projectServiceUrl?: string; productionPasswordCost?: boolean } = {},
) {
  const database = await openTestDatabase();
  const db: Db = database.db(identityService.schema);

  let offsetMs = 0;
  const clock = {
    now: () => Date.now() + offsetMs,
    advanceSeconds(seconds: number) {
      offsetMs += seconds * 1000;
    },
  };

  // Every log line is kept so tests can show that no secret reaches the logs.
  const logLines: string[] = [];
  const logger = createLogger(
    { name: 'identity-service', level: 'debug' },
    { write: (line: string) => void logLines.push(line) },
  );

  const broker = await openTestBroker({ logger });
  const bus = broker.bus({ logger, producer: 'identity-service' });

  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const service = await openService(identityService, {
    env: {
      DATABASE_URL: database.url,
      INTERNAL_JWT_SECRET: INTERNAL_SECRET,
      JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      PUBLIC_URL,
      AMQP_URL: broker.url,
      // The discard port: no service answers there.
      PROJECT_SERVICE_URL: options.projectServiceUrl ?? 'http://127.0.0.1:9',
      ...(options.productionPasswordCost ? {} : { PASSWORD_SCRYPT_N: TEST_PASSWORD_SCRYPT_N }),
    },
    db,
    bus,
    logger,
    now: clock.now,
  });
  await service.relay(database.relayOptions);
  const server = await listen(service.app);
  const signPrincipal = createPrincipalSigner(INTERNAL_SECRET);
  const signInternalCaller = createInternalCallerSigner(INTERNAL_SECRET, 'identity-test');

  async function principalHeaders(principal: Principal): Promise<Record<string, string>> {
    return { [PRINCIPAL_HEADER]: await signPrincipal(principal) };
  }

  function post(path: string, body?: unknown, headers?: Record<string, string>): Promise<Response> {
    return request(`${server.url}${path}`, { method: 'POST', body, headers });
  }

  return {
    url: server.url,
    db,
    publicKey: publicKey as KeyObject,
    clock,
    logLines,
    post,
    get: (path: string, headers?: Record<string, string>) => request(`${server.url}${path}`, { headers }),
    asUser: (userId: string) => principalHeaders({ kind: 'user', userId }),
    /** What another service sends on `/internal/...`. */
    asInternalCaller: async (): Promise<Record<string, string>> => ({
      [INTERNAL_CALLER_HEADER]: await signInternalCaller(),
    }),
    asProjectToken: () =>
      principalHeaders({
        kind: 'project_token',
        tokenId: 'tok_1',
        projectId: 'prj_1',
        permissions: 'read_write',
      }),

    /** Signs up a new user with a unique email; answers the 201 body. */
    async signUp(overrides: { email?: string; password?: string; name?: string } = {}) {
      const response = await post('/v1/auth/signup', {
        email: overrides.email ?? uniqueEmail(),
        password: overrides.password ?? PASSWORD,
        ...(overrides.name === undefined ? {} : { name: overrides.name }),
      });
      expect(response.status).toBe(201);
      return response.body as {
        user: { userId: string; email: string; name: string | null; createdAt: number };
        accessToken: string;
        refreshToken: string;
        expiresIn: number;
      };
    },

    broker,

    async close() {
      await server.close();
      await service.close();
      await bus.close();
      await broker.close();
      await db.close();
      await database.drop();
    },
  };
}

export type IdentityService = Awaited<ReturnType<typeof startIdentityService>>;

export function uniqueEmail(): string {
  return `user-${randomUUID()}@example.com`;
}

export { expectError } from '@tolk/testing';
