/**
 * DESIGN §13 on locale-service: what an upload teaches the translation memory is kept with the
 * upload and learned after it (memory-learning.ts), in the order of the uploads, before lookups.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@tolk/logger';
import { createMemoryRepository, textHash } from '../src/data-access/memory-repository.js';
import { createMemoryLearning } from '../src/domain/memory-learning.js';
import { startLocaleService, type LocaleService } from './locale-harness.js';

let service: LocaleService;
beforeAll(async () => {
  service = await startLocaleService();
});
afterAll(async () => {
  await service?.close();
});

const quiet = createLogger({ name: 'memory-learning-test', level: 'silent' });
const repository = () => createMemoryRepository(service.db, { nearTimeoutMs: 500 });

/** What the memory holds of `text` for a project's locale. */
async function remembered(projectId: string, locale: string, text: string) {
  return (await repository().exact([projectId], projectId, locale, [text]))[0]?.translation;
}

async function pendingOf(projectId: string): Promise<number> {
  const { rows } = await service.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM memory_pending WHERE project_id = $1`,
    [projectId],
  );
  return rows[0]!.n;
}

const lesson = (source: string, translation: string) => [{ source, translation, key: 'k' }];

describe('translation memory: learning what uploads kept', () => {
  it('when an upload is kept, then a lookup of its locale learns it first, by the same hash as the texts it looks up', async () => {
    const memory = repository();
    const projectId = randomUUID();
    await memory.defer(projectId, 'de', lesson('Save ✓ ünïcode', 'Speichern'), Date.now(), service.db);
    expect(await remembered(projectId, 'de', 'Save ✓ ünïcode')).toBeUndefined();

    await createMemoryLearning({ memory, logger: quiet }).catchUp([projectId], 'de');

    expect(await remembered(projectId, 'de', 'Save ✓ ünïcode')).toBe('Speichern');
    const { rows } = await service.db.query<{ source_hash: Buffer }>(
      `SELECT source_hash FROM memory_texts WHERE project_id = $1`,
      [projectId],
    );
    expect(rows.map((row) => row.source_hash.toString('hex'))).toEqual([
      textHash('Save ✓ ünïcode').toString('hex'),
    ]);
    expect(await pendingOf(projectId)).toBe(0);
  });

  it('when a newer upload is learned before an older one, then the newer translation stays', async () => {
    const memory = repository();
    const projectId = randomUUID();
    await memory.defer(projectId, 'de', lesson('Open', 'Öffnen (alt)'), 1_000, service.db);
    await memory.defer(projectId, 'de', lesson('Open', 'Öffnen'), 2_000, service.db);
    const { rows } = await service.db.query<{ id: string }>(
      `SELECT id FROM memory_pending WHERE project_id = $1 ORDER BY id LIMIT 1`,
      [projectId],
    );
    // The older upload is being learned elsewhere: the next one is learned first.
    await service.db.transaction(async (tx) => {
      await tx.query(`SELECT id FROM memory_pending WHERE id = $1 FOR UPDATE`, [rows[0]!.id]);
      expect(await memory.learnNext(projectId)).toBe(true);
      expect(await memory.learnNext(projectId)).toBe(false);
    });
    expect(await remembered(projectId, 'de', 'Open')).toBe('Öffnen');

    expect(await memory.learnNext(projectId)).toBe(true);
    expect(await remembered(projectId, 'de', 'Open')).toBe('Öffnen');
  });

  it("when a project's uploads are under way, then the memory learns only after the last one ends", async () => {
    const memory = repository();
    const learning = createMemoryLearning({ memory, logger: quiet, idleMs: 50 });
    const projectId = randomUUID();
    let endFirst!: () => void;
    const first = learning.during(projectId, () => new Promise<void>((resolve) => (endFirst = resolve)));
    await learning.during(projectId, () =>
      memory.defer(projectId, 'fr', lesson('Close', 'Fermer'), Date.now(), service.db),
    );
    expect(await pendingOf(projectId)).toBe(1);

    endFirst();
    await first;
    await vi.waitFor(async () => expect(await pendingOf(projectId)).toBe(0));
    expect(await remembered(projectId, 'fr', 'Close')).toBe('Fermer');
    await learning.stop();
  });

  it('when the service stopped before it learned, then it learns what was kept when it starts again', async () => {
    const memory = repository();
    const projectId = randomUUID();
    await memory.defer(projectId, 'it', lesson('Send', 'Invia'), Date.now(), service.db);

    const learning = createMemoryLearning({ memory, logger: quiet });
    await learning.resume();
    await vi.waitFor(async () => expect(await pendingOf(projectId)).toBe(0));
    expect(await remembered(projectId, 'it', 'Send')).toBe('Invia');
    await learning.stop();
  });

  it('when a locale is removed before its upload was learned, then nothing of it is learned', async () => {
    const memory = repository();
    const projectId = randomUUID();
    await memory.defer(projectId, 'nl', lesson('Delete', 'Verwijderen'), Date.now(), service.db);
    await memory.defer(projectId, 'sv', lesson('Delete', 'Radera'), Date.now(), service.db);

    await service.db.transaction((tx) => memory.forgetLocale(projectId, 'nl', tx));
    await memory.learnPending([projectId], 'nl');
    await memory.learnPending([projectId], 'sv');

    expect(await remembered(projectId, 'nl', 'Delete')).toBeUndefined();
    expect(await remembered(projectId, 'sv', 'Delete')).toBe('Radera');
  });
});
