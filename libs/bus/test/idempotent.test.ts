import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '@tolk/testing';
import { migrate, type Db, type Queryable } from '@tolk/db';
import { busTablesSql, consumerOf, handleOnce } from '@tolk/bus';

describe('handleOnce', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await openTestDatabase();
    db = database.db('consumer_svc');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tolk-idempotent-'));
    await writeFile(
      path.join(dir, '0001_effects.sql'),
      'CREATE TABLE effects (id bigserial PRIMARY KEY, event_id text NOT NULL);',
    );
    await migrate(db, dir, undefined, { before: busTablesSql({ outbox: false, consumes: true }) });
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  function applyEffect(eventId: string, delayMs = 0) {
    return async (tx: Queryable) => {
      await tx.query('INSERT INTO effects (event_id) VALUES ($1)', [eventId]);
      if (delayMs) await tx.query('SELECT pg_sleep($1)', [delayMs / 1000]);
    };
  }

  async function effects(eventId: string): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM effects WHERE event_id = $1',
      [eventId],
    );
    return rows[0]?.n ?? -1;
  }

  it('when the same event is handled twice, then its effect happens once', async () => {
    const eventId = randomUUID();
    expect(await handleOnce(db, 'locale-service.source', eventId, applyEffect(eventId))).toBe(true);
    expect(await handleOnce(db, 'locale-service.source', eventId, applyEffect(eventId))).toBe(false);
    expect(await effects(eventId)).toBe(1);
  });

  it('when the same event arrives twice at once, then its effect happens once', async () => {
    const eventId = randomUUID();
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map(() => handleOnce(db, 'locale-service.source', eventId, applyEffect(eventId, 100))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await effects(eventId)).toBe(1);
  });

  it('when the effect fails, then nothing is recorded and the redelivery applies it', async () => {
    const eventId = randomUUID();
    await expect(
      handleOnce(db, 'locale-service.source', eventId, async (tx) => {
        await applyEffect(eventId)(tx);
        throw new Error('effect failed');
      }),
    ).rejects.toThrow(/effect failed/);
    expect(await effects(eventId)).toBe(0);
    expect(await handleOnce(db, 'locale-service.source', eventId, applyEffect(eventId))).toBe(true);
    expect(await effects(eventId)).toBe(1);
  });

  it('when two consumers handle the same event, then each applies it once', async () => {
    const eventId = randomUUID();
    expect(await handleOnce(db, 'consumer-a', eventId, applyEffect(eventId))).toBe(true);
    expect(await handleOnce(db, 'consumer-b', eventId, applyEffect(eventId))).toBe(true);
    expect(await handleOnce(db, 'consumer-a', eventId, applyEffect(eventId))).toBe(false);
    expect(await effects(eventId)).toBe(2);
  });
});

describe('consumerOf', () => {
  const envelope = (type: string, data: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    type,
    occurredAt: 1,
    producer: 'test',
    data,
  });

  it('when built from effects by type, then it consumes those types and gives each event to its own', async () => {
    const seen: string[] = [];
    const consumer = consumerOf({
      UserDeleted: (event) => async () => void seen.push(`deleted ${String(event.data['userId'])}`),
      // A type whose function finds nothing to do for this event.
      ProjectMembershipChanged: () => undefined,
    });
    expect(consumer.eventTypes).toEqual(['UserDeleted', 'ProjectMembershipChanged']);
    await consumer.effectOf(envelope('UserDeleted', { userId: 'usr_1' }))?.({} as Queryable);
    expect(seen).toEqual(['deleted usr_1']);
    expect(consumer.effectOf(envelope('ProjectMembershipChanged'))).toBeUndefined();
    expect(consumer.effectOf(envelope('SourceChanged'))).toBeUndefined();
  });
});
