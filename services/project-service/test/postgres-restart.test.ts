import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canRunPrivatePostgres,
  PRIVATE_POSTGRES_NEEDS,
  realServers,
  request,
  settled,
  startPrivatePostgres,
  type PrivatePostgres,
} from '@tolk/testing';
import { startProjectService, type ProjectService } from './project-harness.js';

/**
 * Postgres restarted under a stream of reads and writes, on a server of this file's own (the
 * shared one serves other test files): while it is away every answer is a 503
 * SERVICE_UNAVAILABLE with Retry-After, which clients wait out, never a 500; readiness says
 * so; and once it is back the service answers as before, without being restarted itself.
 */
const withoutPrivatePostgres = !canRunPrivatePostgres() || !realServers().postgres;

type Answer = { at: number; method: string; status: number; retryAfter: string | null; body: unknown };

describe.skipIf(withoutPrivatePostgres)(
  `Postgres restarted under load (needs ${PRIVATE_POSTGRES_NEEDS})`,
  () => {
    let postgres: PrivatePostgres;
    let service: ProjectService;
    beforeAll(async () => {
      postgres = await startPrivatePostgres();
      service = await startProjectService({ postgresUrl: postgres.url });
    }, 60_000);
    afterAll(async () => {
      // The server must be up for the harness to drop its database.
      await postgres?.start().catch(() => undefined);
      await service?.close();
      await postgres?.close();
    }, 60_000);

    it('when Postgres stops and starts, then every answer is 2xx or 503 with Retry-After, never 500, and 2xx again after', async () => {
      const owner = await service.signUp();
      const as = await service.as(owner.userId);
      const project = await service.createProject(owner.userId);

      const answers: Answer[] = [];
      let running = true;
      async function keepCalling(method: 'GET' | 'POST', path: string, body?: unknown) {
        while (running) {
          const response = await service.call(method, path, { as, body });
          answers.push({
            at: Date.now(),
            method,
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
            body: response.body,
          });
        }
      }
      const callers = [
        keepCalling('GET', '/v1/projects'),
        keepCalling('GET', `/v1/projects/${project.projectId}`),
        keepCalling('POST', '/v1/projects', { name: 'During a restart', sourceLocale: 'en' }),
      ];
      const succeededSince = (since: number, method: string) => () =>
        answers.some((a) => a.at > since && a.method === method && a.status < 300);
      try {
        const restart = { timeout: 20_000, interval: 20 };
        await expect
          .poll(succeededSince(0, 'POST'), { ...restart, message: 'requests succeed before the restart' })
          .toBe(true);

        const stopping = Date.now();
        await postgres.stop();
        const stopped = Date.now();
        await expect
          .poll(() => answers.some((a) => a.at > stopped && a.status >= 300), {
            ...restart,
            message: 'a failed request while Postgres is down',
          })
          .toBe(true);
        const ready = await request(`${service.url}/readyz`);
        expect(ready.status).toBe(503);
        expect(ready.body).toStrictEqual({
          error: { code: 'SERVICE_UNAVAILABLE', message: 'A dependency is not reachable' },
        });

        const starting = Date.now();
        await postgres.start();
        const started = Date.now();
        await expect
          .poll(succeededSince(started, 'GET'), { ...restart, message: 'reads succeed after the restart' })
          .toBe(true);
        await expect
          .poll(succeededSince(started, 'POST'), { ...restart, message: 'writes succeed after the restart' })
          .toBe(true);
        await expect.poll(async () => (await request(`${service.url}/readyz`)).status, restart).toBe(200);
        running = false;
        await Promise.all(callers);
        // The outbox relay came back too: a project created after the restart is announced.
        const createdAfter = answers.find((a) => a.at > started && a.method === 'POST' && a.status === 201);
        const createdId = (createdAfter!.body as { projectId: string }).projectId;
        await expect
          .poll(() => service.deliveredOf('ProjectCreated', createdId), settled)
          .not.toHaveLength(0);

        const unavailable = answers.filter((a) => a.status === 503);
        const lastUnavailable = Math.max(...unavailable.map((a) => a.at));
        console.log(
          `Postgres stopped in ${stopped - stopping} ms and started in ${started - starting} ms; ` +
            `${answers.length} answers, ${unavailable.length} of them 503, from ${unavailable[0]!.at - stopping} ms ` +
            `after the stop began until ${lastUnavailable - started} ms after the start returned`,
        );
        expect(unavailable.length).toBeGreaterThan(0);
        for (const answer of answers) {
          if (answer.status < 300) continue;
          expect(answer).toMatchObject({
            status: 503,
            retryAfter: '2',
            body: {
              error: {
                code: 'SERVICE_UNAVAILABLE',
                message: "The service's database is unavailable; retry after 2 s",
              },
            },
          });
        }
      } finally {
        running = false;
        await Promise.all(callers);
      }
    }, 60_000);
  },
);
