import { consumerOf, type EventConsumer } from '@tolk/bus';
import { projectEventDataSchemas, userEventDataSchemas } from '@tolk/contracts';
import { projectEventEffects } from '@tolk/projects';
import type { TokenSync } from '../../domain/token-sync.js';

/**
 * Consumes project events, removed memberships and UserDeleted. Each event applies once
 * (handleOnce); data that does not parse is retried, then dead-lettered, without blocking the
 * queue.
 */
export function tokenConsumer(sync: TokenSync): EventConsumer {
  return consumerOf({
    ...projectEventEffects(sync),
    ProjectMembershipChanged: (envelope) => {
      const { projectId, userId, change } = projectEventDataSchemas.ProjectMembershipChanged.parse(
        envelope.data,
      );
      // Added, or a new role: the member's tokens stay theirs.
      if (change !== 'removed') return undefined;
      return (tx) => sync.memberRemoved(projectId, userId, tx);
    },
    UserDeleted: (envelope) => {
      const { userId } = userEventDataSchemas.UserDeleted.parse(envelope.data);
      return (tx) => sync.userDeleted(userId, tx);
    },
  });
}
