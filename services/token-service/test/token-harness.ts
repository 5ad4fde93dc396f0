import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { INTERNAL_CALLER_HEADER, type EventEnvelope } from '@tolk/contracts';
import { createInternalCallerSigner } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { consumedFlags, listen, request } from '@tolk/testing';
// Tests may compose services; production code never imports another service.
import { INTERNAL_SECRET, callerOf, startSourceService } from '../../source-service/test/source-harness.js';
import { openService } from '@tolk/service';
import { tokenService } from '../src/index.js';

type Headers = Record<string, string>;
export type Response = Awaited<ReturnType<typeof request>>;

/** A token as the creation answers it. */
export type CreatedToken = {
  tokenId: string;
  tokenPrefix: null;
  label: string;
  permissions: 'read' | 'read_write';
  lastUsedAt: null;
  createdAt: number;
  token: string;
};

/**
 * token-service as it runs, next to a real project-service (startSourceService brings one, and a
 * source-service this harness does not use): one database with each service's schema, every
 * outbox relayed to RabbitMQ, token-service consuming project events on a durable queue of this
 * test file's own. Every log line of token-service is kept, and every TokenRevoked on the
 * exchange is collected. `env` overrides token-service's configuration.
 */
export async function startTokenService(options: { env?: Record<string, string> } = {}) {
  const base = await startSourceService();
  const logLines: string[] = [];
  const logger = createLogger(
    { name: 'token-service', level: 'debug' },
    { write: (line: string) => void logLines.push(line) },
  );
  const db = base.database.db(tokenService.schema);
  const bus = base.broker.bus({ logger, producer: 'token-service' });
  const service = await openService(tokenService, {
    env: {
      DATABASE_URL: base.databaseUrl,
      AMQP_URL: base.amqpUrl,
      INTERNAL_JWT_SECRET: INTERNAL_SECRET,
      PROJECT_SERVICE_URL: base.projectUrl,
      IDENTITY_SERVICE_URL: base.writers.url,
      ...options.env,
    },
    db,
    bus,
    logger,
  });
  await service.relay(base.database.relayOptions);
  const queue = `token-service-test-${randomUUID()}`;
  await service.consume(queue);
  const server = await listen(service.app);

  // Every TokenRevoked published (by any test file), as it arrived on a queue of this harness.
  const published: EventEnvelope[] = [];
  await base.broker.observe(['TokenRevoked'], ({ envelope }) => published.push(envelope));

  const signInternalCaller = createInternalCallerSigner(INTERNAL_SECRET, 'gateway');
  /** The headers of a call to `/internal/...` as the gateway makes it. */
  const asInternalCaller = async (): Promise<Headers> => ({
    [INTERNAL_CALLER_HEADER]: await signInternalCaller(),
  });

  const call = callerOf(server.url);

  const tokensPath = (projectId: string, tokenId?: string) =>
    `/v1/projects/${projectId}/tokens${tokenId === undefined ? '' : `/${tokenId}`}`;

  return {
    url: server.url,
    db,
    logLines,
    published,
    call,
    tokensPath,
    as: base.as,
    asProjectToken: base.asProjectToken,
    createProject: base.createProject,
    deleteProject: base.deleteProject,
    addMember: base.addMember,
    removeMember: base.removeMember,
    /** identity- and token-service's answers: accounts deleted, tokens revoked, either down. */
    writers: base.writers,

    /** `POST .../tokens`, expected to answer 201. */
    async createToken(
      projectId: string,
      as: Headers,
      body: { label: string; permissions: 'read' | 'read_write' } = { label: 'CI', permissions: 'read' },
    ): Promise<CreatedToken> {
      const response = await call('POST', tokensPath(projectId), { as, body });
      expect(response.status).toBe(201);
      return response.body as CreatedToken;
    },

    /** `GET .../tokens`, expected to answer 200. */
    async listTokens(projectId: string, as: Headers) {
      const response = await call('GET', tokensPath(projectId), { as });
      expect(response.status).toBe(200);
      return response.body as {
        tokens: Array<Omit<CreatedToken, 'token' | 'tokenPrefix' | 'lastUsedAt'> & Record<string, unknown>>;
      };
    },

    asInternalCaller,

    /** A POST to an internal route, as the gateway makes it (or with `as` instead). */
    async internal(path: string, body: unknown, as?: Headers) {
      return call('POST', path, { as: as ?? (await asInternalCaller()), body });
    },

    /** Whether the consumer applied the event (true) or skipped it as a duplicate (false), per delivery. */
    consumed(eventId: string): boolean[] {
      return consumedFlags(logLines, eventId);
    },

    /** This service's outbox rows of a project, in order. */
    async outboxRows(projectId: string) {
      const { rows } = await db.query<{ id: string; type: string; payload: EventEnvelope }>(
        `SELECT id, type, payload FROM outbox WHERE payload -> 'data' ->> 'projectId' = $1 ORDER BY seq`,
        [projectId],
      );
      return rows;
    },

    /** Every row of every table of the tokens schema, as Postgres prints it. */
    async dumpSchema(): Promise<string> {
      const { rows: tables } = await db.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
        [tokenService.schema],
      );
      const lines: string[] = [];
      for (const { table_name } of tables) {
        const { rows } = await db.query<{ line: string }>(
          `SELECT t::text AS line FROM ${tokenService.schema}."${table_name}" t`,
        );
        lines.push(`-- ${table_name}`, ...rows.map((row) => row.line));
      }
      return lines.join('\n');
    },

    /** Publishes an event as another service would. */
    publish: base.publish,

    async close() {
      await server.close();
      await service.close();
      await bus.close();
      // The test's durable queue (and its dead-letter queue) go with it.
      await base.broker.deleteQueues([queue]);
      await db.close();
      await base.close();
    },
  };
}

export type TokenService = Awaited<ReturnType<typeof startTokenService>>;

export { expectError } from '@tolk/testing';
