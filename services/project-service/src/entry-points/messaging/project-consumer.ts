import { consumerOf, type EventConsumer } from '@tolk/bus';
import { userEventDataSchemas } from '@tolk/contracts';
import type { AccountRemoval } from '../../domain/account-removal.js';

/**
 * Consumes UserDeleted: the account's projects and memberships go (see AccountRemoval). Each
 * event applies once (handleOnce); data that does not parse is retried, then dead-lettered.
 */
export function projectConsumer(accountRemoval: Pick<AccountRemoval, 'userDeleted'>): EventConsumer {
  return consumerOf({
    UserDeleted: (envelope) => {
      const { userId } = userEventDataSchemas.UserDeleted.parse(envelope.data);
      return (tx) => accountRemoval.userDeleted(userId, tx);
    },
  });
}
