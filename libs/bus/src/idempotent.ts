import { assertSchemaName, type Db, type Queryable } from '@tolk/db';

/**
 * Applies an event's effect at most once per consumer: the "processed" record and the effect
 * commit in one transaction. Returns false when this consumer had already processed the event.
 * A concurrent duplicate waits on the first one's row lock and then skips; if `fn` throws,
 * nothing is recorded and the redelivery runs it again.
 */
export function handleOnce(
  db: Db,
  consumer: string,
  eventId: string,
  fn: (tx: Queryable) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      `INSERT INTO ${assertSchemaName(db.schema)}.processed_events (consumer, event_id)
       VALUES ($1, $2)
       ON CONFLICT DO NOTHING`,
      [consumer, eventId],
    );
    if (rowCount === 0) return false;
    await fn(tx);
    return true;
  });
}
