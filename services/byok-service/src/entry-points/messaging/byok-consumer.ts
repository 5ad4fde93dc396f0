import { subscribeOnce, type Bus } from '@tolk/bus';
import { userEventDataSchemas } from '@tolk/contracts';
import type { Db } from '@tolk/db';
import type { Logger } from '@tolk/logger';
import type { ByokSync } from '../../domain/byok-sync.js';

/** The durable queue of this service's consumer. */
export const BYOK_QUEUE = 'byok-service';

/**
 * Consumes UserDeleted: the account's provider keys go. Each event applies once (handleOnce);
 * data that does not parse is retried, then dead-lettered, without blocking the queue.
 */
export function subscribeByokConsumer(deps: {
  bus: Bus;
  db: Db;
  sync: ByokSync;
  logger: Logger;
  queue?: string;
}): Promise<void> {
  return subscribeOnce({
    bus: deps.bus,
    db: deps.db,
    queue: deps.queue ?? BYOK_QUEUE,
    eventTypes: ['UserDeleted'],
    effectOf: (envelope) => {
      if (envelope.type !== 'UserDeleted') return undefined;
      const { userId } = userEventDataSchemas.UserDeleted.parse(envelope.data);
      return (tx) => deps.sync.userDeleted(userId, tx);
    },
    logger: deps.logger,
  });
}
