import { randomUUID } from 'node:crypto';
import { enqueueEvent } from '@tolk/bus';
import type { EventEnvelope } from '@tolk/contracts';
import type { Db, Queryable, TransactionOptions } from '@tolk/db';
import { projectNotFound } from '@tolk/projects';
import type { BaselinesRepository } from '../data-access/baselines-repository.js';
import type { LocalesRepository } from '../data-access/locales-repository.js';

export const PRODUCER = 'locale-service';

/**
 * The translation baseline of a project (DESIGN §4): the lowest synced version among its target
 * locales, 0 when it has none. Every change to a project's locales runs inside `change`, which
 * holds the project's baseline lock; when the change moves the baseline, a
 * TranslationBaselineChanged with the next sequence goes to the outbox in the same transaction.
 */
export function createBaselineKeeper(deps: {
  db: Db;
  baselines: BaselinesRepository;
  locales: LocalesRepository;
  now: () => number;
}) {
  const { db, baselines, locales, now } = deps;

  async function announce(
    projectId: string,
    tx: Queryable,
    held: { baselineVersion: number; sequence: number },
  ) {
    const baselineVersion = await locales.lowestSynced(projectId, tx);
    if (baselineVersion === held.baselineVersion) return;
    const next = { baselineVersion, sequence: held.sequence + 1 };
    await baselines.set(projectId, next, tx);
    const event: EventEnvelope = {
      id: randomUUID(),
      type: 'TranslationBaselineChanged',
      occurredAt: now(),
      producer: PRODUCER,
      data: { projectId, baselineVersion, sequence: next.sequence },
    };
    await enqueueEvent(tx, db.schema, event);
  }

  return {
    /**
     * Runs `work` in a transaction holding the project's baseline lock, then announces a move;
     * `options` are the transaction's (a writer's check at commit).
     */
    async change<T>(
      projectId: string,
      work: (tx: Queryable) => Promise<T>,
      options?: TransactionOptions,
    ): Promise<T> {
      return db.transaction(async (tx) => {
        const held = await baselines.lock(projectId, tx);
        if (!held) throw projectNotFound();
        const result = await work(tx);
        await announce(projectId, tx, held);
        return result;
      }, options);
    },
  };
}

export type BaselineKeeper = ReturnType<typeof createBaselineKeeper>;
