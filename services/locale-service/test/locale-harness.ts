import { randomUUID } from 'node:crypto';
import { expect, vi } from 'vitest';
import type { EventEnvelope } from '@tolk/contracts';
import { createLogger } from '@tolk/logger';
import { consumedFlags, listen, settled } from '@tolk/testing';
// Tests may compose services; production code never imports another service.
import { INTERNAL_SECRET, callerOf, startSourceService } from '../../source-service/test/source-harness.js';
import { openService } from '@tolk/service';
import { localeService } from '../src/index.js';

type Headers = Record<string, string>;

/**
 * locale-service as it runs, next to a real project-service and source-service (see
 * startSourceService): one database with each service's schema, every outbox relayed to
 * RabbitMQ, locale-service and source-service consuming on durable queues of this test file's
 * own. `env` overrides locale-service's configuration.
 */
export async function startLocaleService(
  options: {
    env?: Record<string, string>;
    /** A broker of the test's own, for every service of the harness. */
    amqpUrl?: string;
    /** false: locale-service consumes no events (SourceChanged never arrives). */
    consume?: boolean;
  } = {},
) {
  const source = await startSourceService({ amqpUrl: options.amqpUrl });
  const logLines: string[] = [];
  const logger = createLogger(
    { name: 'locale-service', level: 'debug' },
    { write: (line: string) => void logLines.push(line) },
  );
  const db = source.database.db(localeService.schema);
  const bus = source.broker.bus({ logger, producer: 'locale-service' });
  const service = await openService(localeService, {
    env: {
      DATABASE_URL: source.databaseUrl,
      AMQP_URL: source.amqpUrl,
      INTERNAL_JWT_SECRET: INTERNAL_SECRET,
      PROJECT_SERVICE_URL: source.projectUrl,
      SOURCE_SERVICE_URL: source.url,
      IDENTITY_SERVICE_URL: source.writers.url,
      TOKEN_SERVICE_URL: source.writers.url,
      ...options.env,
    },
    db,
    bus,
    logger,
  });
  await service.relay(source.database.relayOptions);
  const queue = `locale-service-test-${randomUUID()}`;
  if (options.consume !== false) await service.consume(queue);
  const server = await listen(service.app);

  // What the consumer gave up on, as it reached its dead-letter queue (RabbitMQ only).
  const deadLettered: string[] = [];
  if (options.consume !== false) {
    await source.broker.onDeadLetter(queue, (message) => deadLettered.push(message.content.toString('utf8')));
  }

  const call = callerOf(server.url);

  return {
    url: server.url,
    db,
    bus,
    queue,
    logLines,
    deadLettered,
    source,
    call,
    as: source.as,
    asProjectToken: source.asProjectToken,
    createProject: source.createProject,
    deleteProject: source.deleteProject,
    addMember: source.addMember,
    removeMember: source.removeMember,
    /** identity- and token-service's answers: accounts deleted, tokens revoked, either down. */
    writers: source.writers,

    /** A project with target locales added through locale-service. */
    async projectWithLocales(locales: string[], body: Record<string, unknown> = {}) {
      const project = await source.createProject(body);
      for (const locale of locales) {
        const added = await call('POST', `/v1/projects/${project.projectId}/locales`, {
          as: project.owner,
          body: { locale },
        });
        expect(added.status).toBe(201);
      }
      return project;
    },

    /** `PUT .../source` on source-service; its answer. */
    async putSource(projectId: string, as: Headers, body: unknown) {
      const response = await source.call('PUT', `/v1/projects/${projectId}/source`, { as, body });
      expect(response.status).toBe(200);
      return response.body as { version: number; needsTranslation: boolean; diff: Record<string, string[]> };
    },

    /** `GET .../source` on source-service. */
    async getSource(projectId: string, as: Headers) {
      const response = await source.call('GET', `/v1/projects/${projectId}/source`, { as });
      expect(response.status).toBe(200);
      return response.body as { version: number; pendingDiff: Record<string, string[]> };
    },

    /** `PUT .../locales/{locale}/translations?sourceVersion=N`. */
    putTranslations(
      projectId: string,
      locale: string,
      as: Headers,
      sourceVersion: number | string,
      body: unknown,
    ) {
      return call(
        'PUT',
        `/v1/projects/${projectId}/locales/${locale}/translations?sourceVersion=${sourceVersion}`,
        {
          as,
          body,
        },
      );
    },

    /** `PATCH /v1/projects/{id}` on project-service (settings, say); expected to answer 200. */
    patchProject: source.patchProject,

    /** `GET .../locales/{locale}/translations`, expected to answer 200: the file, parsed. */
    async download(projectId: string, locale: string, as: Headers) {
      const response = await call('GET', `/v1/projects/${projectId}/locales/${locale}/translations`, { as });
      expect(response.status).toBe(200);
      return JSON.parse(response.body.content as string) as Record<string, unknown>;
    },

    /** Waits until `GET .../locales/{locale}` answers what `accept` accepts; that answer. */
    async waitForLocale(
      projectId: string,
      locale: string,
      as: Headers,
      what: string,
      accept: (body: Record<string, unknown>) => boolean,
    ) {
      return vi.waitFor(async () => {
        const response = await call('GET', `/v1/projects/${projectId}/locales/${locale}`, { as });
        expect(response.status === 200 && accept(response.body), `${locale}: ${what}`).toBe(true);
        return response.body as Record<string, unknown> & { missing: string[]; outdated: string[] };
      }, settled);
    },

    /** `GET .../locales/{locale}`, expected to answer 200. */
    async getLocale(projectId: string, locale: string, as: Headers) {
      const response = await call('GET', `/v1/projects/${projectId}/locales/${locale}`, { as });
      expect(response.status).toBe(200);
      return response.body as Record<string, unknown> & {
        status: string;
        missing: string[];
        outdated: string[];
      };
    },

    /** Waits until the locale shows `sourceVersion` (its SourceChanged consumed). */
    async waitForSourceVersion(projectId: string, locale: string, as: Headers, version: number) {
      return vi.waitFor(async () => {
        const response = await call('GET', `/v1/projects/${projectId}/locales/${locale}`, { as });
        expect(
          response.status === 200 && response.body.sourceVersion === version,
          `${locale} at source version ${version}`,
        ).toBe(true);
        return response.body;
      }, settled);
    },

    /** Waits until source-service has taken in the baseline (pendingDiff follows it). */
    async waitForPendingDiff(projectId: string, as: Headers, expected: Record<string, string[]>) {
      return vi.waitFor(async () => {
        const response = await source.call('GET', `/v1/projects/${projectId}/source`, { as });
        expect(
          JSON.stringify(response.body.pendingDiff) === JSON.stringify(expected),
          `pendingDiff ${JSON.stringify(expected)}`,
        ).toBe(true);
        return response.body;
      }, settled);
    },

    /** The SourceChanged source-service published for a project's version, as delivered. */
    async sourceChanged(projectId: string, version: number): Promise<EventEnvelope> {
      return vi.waitFor(async () => {
        const found = source.delivered.find(
          (event) =>
            event.type === 'SourceChanged' &&
            (event.data as { projectId: string }).projectId === projectId &&
            (event.data as { version: number }).version === version,
        );
        expect(found, `SourceChanged ${version} of ${projectId}`).toBeDefined();
        return found!;
      }, settled);
    },

    /** Starts consuming, when started with `consume: false`; events published before are not on the queue. */
    async startConsuming() {
      await service.consume(queue);
    },

    /** Puts a message with any body straight on this service's queue (RabbitMQ only). */
    async sendToQueue(content: string, messageId: string = randomUUID()) {
      await source.broker.sendToQueue(queue, content, messageId);
      return messageId;
    },

    /** Whether the consumer applied the event (true) or skipped it as a duplicate (false), per delivery. */
    consumed(eventId: string): boolean[] {
      return consumedFlags(logLines, eventId);
    },

    /** This service's outbox rows of a project. */
    async outboxRows(projectId: string) {
      const { rows } = await db.query<{ type: string; payload: { data: Record<string, unknown> } }>(
        `SELECT type, payload FROM outbox WHERE payload -> 'data' ->> 'projectId' = $1 ORDER BY seq`,
        [projectId],
      );
      return rows;
    },

    async close() {
      await server.close();
      await service.close();
      await bus.close();
      await source.broker.deleteQueues([queue]);
      await db.close();
      await source.close();
    },
  };
}

export type LocaleService = Awaited<ReturnType<typeof startLocaleService>>;

export { expectError } from '@tolk/testing';

/** The model a test claims translations for. */
export const TEST_MODEL = 'openai:gpt-4o-mini';

/** The flattened keys of a locale file's translations (`nav.home`), annotations and metadata left out. */
function uploadKeys(body: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(body).flatMap(([key, value]) => {
    if (key.startsWith('@')) return [];
    const path = `${prefix}${key}`;
    return value !== null && typeof value === 'object'
      ? uploadKeys(value as Record<string, unknown>, `${path}.`)
      : [path];
  });
}

/**
 * `body` with its keys (every one, or `keys`) claimed as the model's: such values are held to
 * every rule, and one that breaks a rule refuses the upload (DESIGN §15), where a person's is
 * stored with its findings.
 */
export function claimedByModel(
  body: Record<string, unknown>,
  keys: readonly string[] = uploadKeys(body),
): Record<string, unknown> {
  return { ...body, '@@provenance': { ai: { model: TEST_MODEL, keys } } };
}
