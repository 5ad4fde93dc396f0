import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { expect } from 'vitest';
import { ATTEMPT_HEADER } from '@tolk/bus';
import { PRINCIPAL_HEADER, type EventEnvelope, type Principal } from '@tolk/contracts';
import { createPrincipalSigner } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { consumedFlags, listen, openTestBroker, openTestDatabase, request } from '@tolk/testing';
// Tests may compose services; production code never imports another service.
import { projectService } from '@tolk/project-service';
import { openService } from '@tolk/service';
import { emailOf, startWriterStandIns } from '../../../libs/projects/test/writer-stand-ins.js';
import { sourceService } from '../src/index.js';

export const INTERNAL_SECRET = 'test-internal-secret-that-is-long-enough';

export type Response = Awaited<ReturnType<typeof request>>;
type Headers = Record<string, string>;

/** Calls on the service at `url`, with the headers `as` (a signed principal, say). */
export function callerOf(url: string) {
  return (method: string, path: string, init: { as?: Headers; body?: unknown; rawBody?: string } = {}) =>
    request(`${url}${path}`, { method, headers: init.as, body: init.body, rawBody: init.rawBody });
}

/**
 * source-service as it runs, next to a real project-service: one database with each service's
 * schema, both outboxes relayed to RabbitMQ, source-service consuming project events on a
 * durable queue of this test file's own (other test files publish to the same exchange).
 * `env` overrides source-service's configuration (limits). The database and the broker are the
 * run's (openTestDatabase, openTestBroker): PGlite and the in-process bus where it has no servers.
 */
export async function startSourceService(options: { env?: Record<string, string>; amqpUrl?: string } = {}) {
  const database = await openTestDatabase();
  const logLines: string[] = [];
  const logger = createLogger(
    { name: 'source-service', level: 'debug' },
    { write: (line: string) => void logLines.push(line) },
  );
  const quiet = createLogger({ name: 'project-service', level: 'silent' });
  // A broker of the test's own when given (one it stops and restarts), else the run's.
  const broker = await openTestBroker({ amqpUrl: options.amqpUrl, logger });

  // Accounts and project API tokens as identity- and token-service would answer for them: asked
  // before an upload commits, and by project-service to add a member by email.
  const writers = await startWriterStandIns();
  // project-service asks source-service the size of a source (key rules' budget): source-service
  // listens first and is given its app once it has started.
  let sourceApp: RequestListener | undefined = undefined;
  const server = await listen((req, res) => sourceApp?.(req, res));

  const projectDb = database.db(projectService.schema);
  const projectBus = broker.bus({ logger: quiet, producer: 'project-service' });
  const project = await openService(projectService, {
    env: {
      DATABASE_URL: database.url,
      AMQP_URL: broker.url,
      INTERNAL_JWT_SECRET: INTERNAL_SECRET,
      IDENTITY_SERVICE_URL: writers.url,
      SOURCE_SERVICE_URL: server.url,
    },
    db: projectDb,
    bus: projectBus,
    logger: quiet,
  });
  await project.relay(database.relayOptions);
  const projectServer = await listen(project.app);

  const db = database.db(sourceService.schema);
  const bus = broker.bus({ logger, producer: 'source-service' });
  const service = await openService(sourceService, {
    env: {
      DATABASE_URL: database.url,
      AMQP_URL: broker.url,
      INTERNAL_JWT_SECRET: INTERNAL_SECRET,
      PROJECT_SERVICE_URL: projectServer.url,
      IDENTITY_SERVICE_URL: writers.url,
      TOKEN_SERVICE_URL: writers.url,
      ...options.env,
    },
    db,
    bus,
    logger,
  });
  await service.relay(database.relayOptions);
  const queue = `source-service-test-${randomUUID()}`;
  await service.consume(queue);
  sourceApp = service.app;

  // Every SourceChanged, as it arrived on a queue of the test's own.
  const delivered: EventEnvelope[] = [];
  await broker.observe(['SourceChanged'], ({ envelope }) => delivered.push(envelope));
  // What the consumer gave up on, as it reached its dead-letter queue (RabbitMQ only).
  const deadLettered: DeadLetter[] = [];
  await broker.onDeadLetter(queue, (message) => {
    deadLettered.push({
      content: message.content.toString('utf8'),
      messageId: message.properties.messageId as unknown,
      attempt: (message.properties.headers ?? {})[ATTEMPT_HEADER] as unknown,
    });
  });

  const signPrincipal = createPrincipalSigner(INTERNAL_SECRET);

  async function as(userId: string): Promise<Headers> {
    return { [PRINCIPAL_HEADER]: await signPrincipal({ kind: 'user', userId }) };
  }

  return {
    url: server.url,
    /** For services composed on top of this one (locale- and token-service's tests). */
    database,
    databaseUrl: database.url,
    broker,
    amqpUrl: broker.url,
    projectUrl: projectServer.url,
    /** identity- and token-service's answers: accounts deleted, tokens revoked, either down. */
    writers,
    db,
    queue,
    logLines,
    delivered,
    deadLettered,
    as,

    call: callerOf(server.url),

    async asProjectToken(projectId: string, permissions: 'read' | 'read_write'): Promise<Headers> {
      // A token id of its own: the signer reuses a signed principal per token id and permission.
      const tokenId = `tok_${randomUUID().replaceAll('-', '')}`;
      const principal: Principal = { kind: 'project_token', tokenId, projectId, permissions };
      writers.issueToken(principal);
      return { [PRINCIPAL_HEADER]: await signPrincipal(principal) };
    },

    /** A project created through project-service; its owner is a fresh user id. */
    async createProject(body: Record<string, unknown> = {}) {
      const ownerId = `usr_${randomUUID().replaceAll('-', '')}`;
      const response = await request(`${projectServer.url}/v1/projects`, {
        method: 'POST',
        headers: await as(ownerId),
        body: { name: 'Website', sourceLocale: 'en', ...body },
      });
      expect(response.status).toBe(201);
      return { ownerId, projectId: response.body.projectId as string, owner: await as(ownerId) };
    },

    /** Adds `userId` to the project through project-service, as its owner would. */
    async addMember(ownerId: string, projectId: string, userId: string, role: 'owner' | 'member' = 'member') {
      const response = await request(`${projectServer.url}/v1/projects/${projectId}/members`, {
        method: 'POST',
        headers: await as(ownerId),
        body: { email: emailOf(userId), role },
      });
      expect(response.status).toBe(201);
    },

    /** Removes `userId` from the project through project-service, as its owner would. */
    async removeMember(ownerId: string, projectId: string, userId: string) {
      const response = await request(`${projectServer.url}/v1/projects/${projectId}/members/${userId}`, {
        method: 'DELETE',
        headers: await as(ownerId),
      });
      expect(response.status).toBe(204);
    },

    async patchProject(ownerId: string, projectId: string, body: Record<string, unknown>) {
      const response = await request(`${projectServer.url}/v1/projects/${projectId}`, {
        method: 'PATCH',
        headers: await as(ownerId),
        body,
      });
      expect(response.status).toBe(200);
    },

    async deleteProject(ownerId: string, projectId: string) {
      const response = await request(`${projectServer.url}/v1/projects/${projectId}`, {
        method: 'DELETE',
        headers: await as(ownerId),
      });
      expect(response.status).toBe(204);
    },

    /** Publishes an event as another service would (e.g. locale-service's baseline). */
    async publish(
      type: string,
      data: Record<string, unknown>,
      given: Partial<Pick<EventEnvelope, 'id' | 'occurredAt'>> = {},
    ) {
      const envelope: EventEnvelope = {
        id: given.id ?? randomUUID(),
        type,
        occurredAt: given.occurredAt ?? Date.now(),
        producer: 'test',
        data,
      };
      await bus.publish(envelope);
      return envelope;
    },

    /**
     * Puts a message with any body straight on this service's queue (RabbitMQ only). Not through
     * the exchange: other test files' observers there parse every message as an envelope.
     */
    async sendToQueue(content: string, messageId: string = randomUUID()) {
      await broker.sendToQueue(queue, content, messageId);
      return messageId;
    },

    /** Whether the consumer applied the event (true) or skipped it as a duplicate (false), per delivery. */
    consumed(eventId: string): boolean[] {
      return consumedFlags(logLines, eventId);
    },

    /** Whether this service has applied the event (handleOnce recorded it). */
    async processed(eventId: string): Promise<boolean> {
      const { rows } = await db.query(
        `SELECT 1 FROM processed_events WHERE consumer = $1 AND event_id = $2`,
        [queue, eventId],
      );
      return rows.length > 0;
    },

    async outboxRows(projectId: string) {
      const { rows } = await db.query<{ id: string; type: string; payload: EventEnvelope }>(
        `SELECT id, type, payload FROM outbox WHERE payload -> 'data' ->> 'projectId' = $1 ORDER BY seq`,
        [projectId],
      );
      return rows;
    },

    async close() {
      await server.close();
      await projectServer.close();
      await writers.close();
      await service.close();
      await project.close();
      await bus.close();
      await projectBus.close();
      // The test's durable queue (and its dead-letter queue) go with it.
      await broker.deleteQueues([queue]);
      await broker.close();
      await db.close();
      await projectDb.close();
      await database.drop();
    },
  };
}

export type SourceService = Awaited<ReturnType<typeof startSourceService>>;

/** A message in the consumer's dead-letter queue; `attempt` = tries of the handler (none if unreadable). */
export type DeadLetter = { content: string; messageId: unknown; attempt: unknown };

export { expectError } from '@tolk/testing';
