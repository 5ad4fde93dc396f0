/**
 * Glossary imports take turns, and one is stored only if its answer says so. Another connection
 * holds a project's lock (as a long import of it would) while imports wait for it: at most
 * GLOSSARY_IMPORTS_AT_ONCE of them may hold a database connection meanwhile, and an import that
 * can no longer answer in time — GLOSSARY_IMPORT_TIMEOUT_MS passed, or its sender (the gateway,
 * when it gives up waiting) gone — is rolled back, not committed behind a 503 or a 504.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { glossaryResponseSchema } from '@tolk/contracts';
import { expectError, realServers, settled } from '@tolk/testing';
import { startProjectService, type ProjectService } from './project-harness.js';

const TIMEOUT_MS = 2000;

let service: ProjectService;
beforeAll(async () => {
  service = await startProjectService({
    env: { GLOSSARY_IMPORT_TIMEOUT_MS: String(TIMEOUT_MS), GLOSSARY_IMPORTS_AT_ONCE: '2' },
  });
});
afterAll(async () => {
  await service?.close();
});

/** The project's row locked by a connection of the test's own until `release`. */
async function holdProjectLock(projectId: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const held = service.db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM projects WHERE project_id = $1 FOR UPDATE', [projectId]);
    locked();
    await released;
  });
  await isLocked;
  return {
    async release() {
      release();
      await held;
    },
  };
}

/** Connections of this test's database waiting for a lock (read outside any transaction). */
async function waitingForLocks(): Promise<number> {
  const { rows } = await service.db.query<{ waiting: number }>(
    `SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return rows[0]!.waiting;
}

/** Once the lock is free: the imports waiting for it have finished, committed or rolled back. */
async function afterWaitingImports(projectId: string): Promise<void> {
  const lock = await holdProjectLock(projectId);
  await lock.release();
}

async function termsOf(projectId: string, userId: string): Promise<string[]> {
  const response = await service.call('GET', `/v1/projects/${projectId}/glossary`, {
    as: await service.as(userId),
  });
  expect(response.status).toBe(200);
  return glossaryResponseSchema.parse(response.body).entries.map((entry) => entry.term);
}

function importInto(projectId: string, headers: Record<string, string>, term: string, signal?: AbortSignal) {
  return fetch(`${service.url}/v1/projects/${projectId}/glossary`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ entries: [{ term, translations: { de: term.toUpperCase() } }] }),
    signal,
  });
}

/** A project whose glossary holds "planted", and its member. */
async function plantedProject() {
  const { project, member } = await service.projectWithMember();
  const planted = await importInto(project.projectId, await service.as(member.userId), 'planted');
  expect(planted.status).toBe(200);
  return { projectId: project.projectId, member };
}

describe('glossary imports waiting for their turn', () => {
  it.skipIf(!realServers().postgres)(
    'when a dozen callers import into one project whose lock is held, then two of them wait in the database and another user’s read is answered meanwhile; then each import is stored and 200, or refused',
    async () => {
      const { projectId, member } = await plantedProject();
      const other = await service.projectWithMember();
      const callers = [
        await service.as(member.userId),
        ...(await Promise.all(
          Array.from({ length: 11 }, () => service.asProjectToken(projectId, 'read_write')),
        )),
      ];
      const lock = await holdProjectLock(projectId);
      let imports: Promise<Response[]> | undefined;
      try {
        imports = Promise.all(callers.map((headers, i) => importInto(projectId, headers, `term ${i}`)));
        await vi.waitFor(async () => expect(await waitingForLocks()).toBe(2), settled);

        // The pool has ten connections: without turns, the imports would hold every one of them, and
        // this read would wait for the lock to be released (after it).
        const read = await fetch(`${service.url}/v1/projects/${other.project.projectId}`, {
          headers: await service.as(other.member.userId),
          signal: AbortSignal.timeout(5000),
        });
        expect(read.status).toBe(200);
        expect(await waitingForLocks()).toBe(2);
      } finally {
        await lock.release();
      }
      // Stored and 200, or (past GLOSSARY_IMPORT_TIMEOUT_MS on a slow machine) 503 and not stored.
      const statuses = (await imports!).map((answer) => answer.status);
      expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
      const stored = await termsOf(projectId, member.userId);
      expect(stored).toHaveLength(1);
      expect(statuses[callers.findIndex((_, i) => stored[0] === `term ${i}`)]).toBe(200);
    },
  );

  it.skipIf(!realServers().postgres)(
    'when an import cannot be stored within GLOSSARY_IMPORT_TIMEOUT_MS of its arrival, then 503 with Retry-After, and nothing is stored',
    async () => {
      const { projectId, member } = await plantedProject();
      const lock = await holdProjectLock(projectId);
      const sent = performance.now();
      let answer: ReturnType<typeof service.call> | undefined;
      try {
        answer = service.call('PUT', `/v1/projects/${projectId}/glossary`, {
          as: await service.as(member.userId),
          body: { entries: [{ term: 'late' }] },
        });
        await vi.waitFor(async () => expect(await waitingForLocks()).toBe(1), settled);
        // The time itself is the condition: the import waits for the lock past its deadline.
        await vi.waitFor(() => expect(performance.now() - sent).toBeGreaterThan(TIMEOUT_MS), {
          timeout: TIMEOUT_MS + settled.timeout,
          interval: 50,
        });
      } finally {
        await lock.release();
      }
      const refused = await answer!;
      expectError(refused, 503, 'SERVICE_UNAVAILABLE');
      expect(refused.body.error.message).toBe(
        'The import could not be stored within 2 s of its arrival (other imports ran first); nothing was ' +
          'imported. Retry after 5 s',
      );
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await termsOf(projectId, member.userId)).toEqual(['planted']);
    },
  );

  it.skipIf(!realServers().postgres)(
    'when the sender of an import goes away while it waits (as the gateway does when it gives up), then nothing is stored',
    async () => {
      const { projectId, member } = await plantedProject();
      const lock = await holdProjectLock(projectId);
      const sender = new AbortController();
      try {
        const answer = importInto(projectId, await service.as(member.userId), 'abandoned', sender.signal);
        await vi.waitFor(async () => expect(await waitingForLocks()).toBe(1), settled);
        sender.abort();
        await expect(answer).rejects.toThrow();
      } finally {
        await lock.release();
      }
      await afterWaitingImports(projectId);
      expect(await termsOf(projectId, member.userId)).toEqual(['planted']);
    },
  );
});
