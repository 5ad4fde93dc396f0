import { subscribeOnce, type Bus } from '@tolk/bus';
import { userEventDataSchemas } from '@tolk/contracts';
import type { Db } from '@tolk/db';
import type { Logger } from '@tolk/logger';
import type { AccountRemoval } from '../../domain/account-removal.js';

/** The durable queue of this service's consumer. */
export const PROJECT_QUEUE = 'project-service';

/**
 * Consumes UserDeleted: the account's projects and memberships go (see AccountRemoval). Each
 * event applies once (handleOnce); data that does not parse is retried, then dead-lettered.
 */
export function subscribeProjectConsumer(deps: {
  bus: Bus;
  db: Db;
  accountRemoval: Pick<AccountRemoval, 'userDeleted'>;
  logger: Logger;
  queue?: string;
}): Promise<void> {
  return subscribeOnce({
    bus: deps.bus,
    db: deps.db,
    queue: deps.queue ?? PROJECT_QUEUE,
    eventTypes: ['UserDeleted'],
    effectOf: (envelope) => {
      if (envelope.type !== 'UserDeleted') return undefined;
      const { userId } = userEventDataSchemas.UserDeleted.parse(envelope.data);
      return (tx) => deps.accountRemoval.userDeleted(userId, tx);
    },
    logger: deps.logger,
  });
}
