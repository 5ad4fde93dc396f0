import type { EventConsumer } from '@tolk/bus';
import { projectEventDataSchemas, userEventDataSchemas, type EventEnvelope } from '@tolk/contracts';
import type { Queryable } from '@tolk/db';
import { PROJECT_EVENTS, projectEventEffect } from '@tolk/projects';
import type { TokenSync } from '../../domain/token-sync.js';

const CONSUMED = [...PROJECT_EVENTS, 'ProjectMembershipChanged', 'UserDeleted'] as const;
type Consumed = (typeof CONSUMED)[number];

/** The effect of one event, inside the transaction that records it as processed. */
function effectOf(envelope: EventEnvelope, sync: TokenSync): ((tx: Queryable) => Promise<void>) | undefined {
  const type = envelope.type as Consumed;
  switch (type) {
    case 'ProjectCreated':
    case 'ProjectUpdated':
    case 'ProjectDeleted':
      return projectEventEffect(envelope, sync)?.apply;
    case 'ProjectMembershipChanged': {
      const { projectId, userId, change } = projectEventDataSchemas.ProjectMembershipChanged.parse(
        envelope.data,
      );
      // Added, or a new role: the member's tokens stay theirs.
      if (change !== 'removed') return undefined;
      return (tx) => sync.memberRemoved(projectId, userId, tx);
    }
    case 'UserDeleted': {
      const { userId } = userEventDataSchemas.UserDeleted.parse(envelope.data);
      return (tx) => sync.userDeleted(userId, tx);
    }
    default:
      return undefined;
  }
}

/**
 * Consumes project events and UserDeleted. Each event applies once (handleOnce); data that does not parse is
 * retried, then dead-lettered, without blocking the queue.
 */
export function tokenConsumer(sync: TokenSync): EventConsumer {
  return { eventTypes: CONSUMED, effectOf: (envelope) => effectOf(envelope, sync) };
}
