import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { expect } from 'vitest';
import {
  INTERNAL_CALLER_HEADER,
  PRINCIPAL_HEADER,
  PROJECT_EVENT_TYPES,
  type EventEnvelope,
  type Principal,
} from '@tolk/contracts';
import type { Db } from '@tolk/db';
import { createInternalCallerSigner, createPrincipalSigner } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import {
  TEST_PASSWORD_SCRYPT_N,
  listen,
  openTestBroker,
  openTestDatabase,
  request,
  type ObservedEvent,
} from '@tolk/testing';
// Tests may compose services; production code never imports another service.
import { identityService } from '@tolk/identity-service';
import { openService } from '@tolk/service';
import { startWriterStandIns } from '../../../libs/projects/test/writer-stand-ins.js';
import type { ProjectResponse } from '@tolk/contracts';
import { projectService } from '../src/index.js';

export const INTERNAL_SECRET = 'test-internal-secret-that-is-long-enough';

export type Response = Awaited<ReturnType<typeof request>>;
type Headers = Record<string, string>;

/** An event as it arrived on a queue of the test's own, with RabbitMQ's message properties (if any). */
export type DeliveredEvent = ObservedEvent;

/**
 * A Db whose next transaction fails at the first statement matching a pattern, after every
 * statement before it ran: shows that a change and its outbox row commit together or not at all.
 */
function withInjectableFailure(db: Db) {
  let failAt: RegExp | undefined;
  const faulty: Db = {
    ...db,
    transaction(fn, options) {
      const pattern = failAt;
      failAt = undefined;
      if (!pattern) return db.transaction(fn, options);
      return db.transaction(
        (tx) =>
          fn({
            async query(text, params) {
              if (pattern.test(text)) throw new Error(`injected failure before: ${text.slice(0, 60)}`);
              return tx.query(text, params);
            },
          }),
        options,
      );
    },
  };
  return {
    db: faulty,
    failNextTransactionAt(pattern: RegExp) {
      failAt = pattern;
    },
  };
}

/**
 * project-service as it runs, next to a real identity-service: one database with each service's
 * schema, migrated at start; the outbox relayed to RabbitMQ; a queue of the test's own bound to
 * every project event. `identityUrl` points project-service at another identity-service (e.g.
 * one that is down); `postgresUrl` puts the database on another Postgres server (e.g. one the
 * test restarts). source-service is a stand-in telling the size of each project's source
 * (`setSourceKeyCharacters`; none by default), or the one at `sourceUrl`.
 */
export async function startProjectService(
  options: {
    identityUrl?: string;
    identityTimeoutMs?: number;
    postgresUrl?: string;
    sourceUrl?: string;
    /** More settings of project-service (e.g. GLOSSARY_IMPORT_TIMEOUT_MS). */
    env?: Record<string, string>;
  } = {},
) {
  const database = await openTestDatabase(options.postgresUrl);
  const logLines: string[] = [];
  const logger = createLogger(
    { name: 'project-service', level: 'debug' },
    { write: (line: string) => void logLines.push(line) },
  );

  const broker = await openTestBroker({ logger });
  const identityLogger = createLogger({ name: 'identity-service', level: 'silent' });
  const identityDb = database.db(identityService.schema);
  const identityBus = broker.bus({ logger: identityLogger, producer: 'identity-service' });
  // identity-service and project-service ask each other (emails; the projects an account deletion
  // takes): identity-service listens first and is given its app once project-service's URL is known.
  let identityApp: RequestListener | undefined = undefined;
  const identityServer = await listen((req, res) => identityApp?.(req, res));

  // Project API tokens as token-service would answer for them, asked before a token's write commits.
  const tokens = await startWriterStandIns();
  const sourceKeyCharacters = new Map<string, number>();
  const sourceStandIn = await listen((req, res) => {
    const projectId = /^\/internal\/projects\/([^/]+)\/source\/key-characters$/.exec(req.url ?? '')?.[1];
    const characters = projectId === undefined ? undefined : (sourceKeyCharacters.get(projectId) ?? 0);
    res.writeHead(characters === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        version: characters ? 1 : 0,
        keyCount: characters ? 1 : 0,
        keyCharacters: characters,
      }),
    );
  });

  const db = database.db(projectService.schema);
  const faults = withInjectableFailure(db);
  const bus = broker.bus({ logger, producer: 'project-service' });
  const service = await openService(projectService, {
    env: {
      DATABASE_URL: database.url,
      AMQP_URL: broker.url,
      INTERNAL_JWT_SECRET: INTERNAL_SECRET,
      IDENTITY_SERVICE_URL: options.identityUrl ?? identityServer.url,
      TOKEN_SERVICE_URL: tokens.url,
      SOURCE_SERVICE_URL: options.sourceUrl ?? sourceStandIn.url,
      ...(options.identityTimeoutMs
        ? { IDENTITY_SERVICE_TIMEOUT_MS: String(options.identityTimeoutMs) }
        : {}),
      ...options.env,
    },
    db,
    bus,
    logger,
  });
  await service.relay(database.relayOptions);
  // Requests run on a Db whose next transaction can be made to fail; the relay and the consumer
  // on the plain one, so that neither takes a failure meant for a request.
  const { app } = await openService(projectService, { config: service.config, db: faults.db, bus, logger });
  const server = await listen(app);
  const consumerQueue = `project-service-test-${randomUUID()}`;
  await service.consume(consumerQueue);

  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const identity = await openService(identityService, {
    env: {
      DATABASE_URL: database.url,
      AMQP_URL: broker.url,
      INTERNAL_JWT_SECRET: INTERNAL_SECRET,
      JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      PROJECT_SERVICE_URL: server.url,
      PASSWORD_SCRYPT_N: TEST_PASSWORD_SCRYPT_N,
    },
    db: identityDb,
    bus: identityBus,
    logger: identityLogger,
  });
  await identity.relay(database.relayOptions);
  identityApp = identity.app;

  // Other test files publish project events to the same exchange: look for your project's.
  const delivered: DeliveredEvent[] = [];
  await broker.observe(PROJECT_EVENT_TYPES, (event) => delivered.push(event));

  const signPrincipal = createPrincipalSigner(INTERNAL_SECRET);
  const signInternalCaller = createInternalCallerSigner(INTERNAL_SECRET, 'gateway');

  function call(
    method: string,
    path: string,
    init: { as?: Headers; body?: unknown } = {},
  ): Promise<Response> {
    return request(`${server.url}${path}`, { method, headers: init.as, body: init.body });
  }

  async function as(userId: string): Promise<Headers> {
    return { [PRINCIPAL_HEADER]: await signPrincipal({ kind: 'user', userId }) };
  }

  return {
    url: server.url,
    identityUrl: identityServer.url,
    /** token-service's answers: `revokeTokensOf` a project, or token-service down. */
    tokens,
    db,
    logLines,
    delivered,
    call,
    as,
    failNextTransactionAt: faults.failNextTransactionAt,

    /** What the stand-in source-service says of the size of a project's current source. */
    setSourceKeyCharacters(projectId: string, characters: number) {
      sourceKeyCharacters.set(projectId, characters);
    },

    async asProjectToken(projectId: string, permissions: 'read' | 'read_write' = 'read'): Promise<Headers> {
      const tokenId = `tok_${randomUUID().replaceAll('-', '')}`;
      const principal: Principal = { kind: 'project_token', tokenId, projectId, permissions };
      tokens.issueToken(principal);
      return { [PRINCIPAL_HEADER]: await signPrincipal(principal) };
    },

    /** What the gateway sends on `/internal/...`. */
    async asInternalCaller(): Promise<Headers> {
      return { [INTERNAL_CALLER_HEADER]: await signInternalCaller() };
    },

    /** A new account in identity-service, through its own signup route. */
    async signUp(): Promise<{ userId: string; email: string }> {
      const email = uniqueEmail();
      const response = await request(`${identityServer.url}/v1/auth/signup`, {
        method: 'POST',
        body: { email, password: 'correct horse battery staple' },
      });
      expect(response.status).toBe(201);
      return { userId: response.body.user.userId as string, email };
    },

    async createProject(ownerId: string, body: Record<string, unknown> = {}): Promise<ProjectResponse> {
      const response = await call('POST', '/v1/projects', {
        as: await as(ownerId),
        body: { name: 'Website', sourceLocale: 'en', ...body },
      });
      expect(response.status).toBe(201);
      return response.body as ProjectResponse;
    },

    async addMember(ownerId: string, projectId: string, email: string, role: 'owner' | 'member' = 'member') {
      const response = await call('POST', `/v1/projects/${projectId}/members`, {
        as: await as(ownerId),
        body: { email, role },
      });
      expect(response.status).toBe(201);
    },

    /** An owner, a member and an outsider of one new project. */
    async projectWithMember() {
      const owner = await this.signUp();
      const member = await this.signUp();
      const outsider = await this.signUp();
      const project = await this.createProject(owner.userId);
      await this.addMember(owner.userId, project.projectId, member.email, 'member');
      return { owner, member, outsider, project };
    },

    /** The outbox rows about one project, oldest first. */
    async outboxRows(projectId: string) {
      const { rows } = await db.query<{ id: string; type: string; payload: EventEnvelope }>(
        `SELECT id, type, payload FROM outbox WHERE payload -> 'data' ->> 'projectId' = $1 ORDER BY seq`,
        [projectId],
      );
      return rows;
    },

    /** The events of `type` about a project delivered so far. */
    deliveredOf: (type: string, projectId: string): DeliveredEvent[] =>
      delivered.filter((d) => d.envelope.type === type && d.envelope.data['projectId'] === projectId),

    /** Stops identity-service: project-service then finds it unreachable. */
    stopIdentity: () => identityServer.close(),

    async close() {
      await server.close();
      await sourceStandIn.close();
      await identityServer.close().catch(() => undefined);
      await tokens.close();
      await service.close();
      await identity.close();
      await bus.close();
      await identityBus.close();
      await broker.deleteQueues([consumerQueue]);
      await broker.close();
      await db.close();
      await identityDb.close();
      await database.drop();
    },
  };
}

export type ProjectService = Awaited<ReturnType<typeof startProjectService>>;

export function uniqueEmail(): string {
  return `user-${randomUUID()}@example.com`;
}

export { expectError } from '@tolk/testing';
