import { consumerOf, type EventConsumer } from '@tolk/bus';
import { userEventDataSchemas } from '@tolk/contracts';
import type { ByokSync } from '../../domain/byok-sync.js';

/**
 * Consumes UserDeleted: the account's provider keys go. Each event applies once (handleOnce);
 * data that does not parse is retried, then dead-lettered, without blocking the queue.
 */
export function byokConsumer(sync: ByokSync): EventConsumer {
  return consumerOf({
    UserDeleted: (envelope) => {
      const { userId } = userEventDataSchemas.UserDeleted.parse(envelope.data);
      return (tx) => sync.userDeleted(userId, tx);
    },
  });
}
