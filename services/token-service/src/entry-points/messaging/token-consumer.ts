import { subscribeOnce, type Bus } from '@tolk/bus';
import { projectEventDataSchemas, userEventDataSchemas, type EventEnvelope } from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';
import type { Logger } from '@tolk/logger';
import type { TokenSync } from '../../domain/token-sync.js';

/** The durable queue of this service's consumer. */
export const TOKEN_QUEUE = 'token-service';

const CONSUMED = [
  'ProjectCreated',
  'ProjectUpdated',
  'ProjectDeleted',
  'ProjectMembershipChanged',
  'UserDeleted',
] as const;
type Consumed = (typeof CONSUMED)[number];

/** The effect of one event, inside the transaction that records it as processed. */
function effectOf(envelope: EventEnvelope, sync: TokenSync): ((tx: Queryable) => Promise<void>) | undefined {
  const type = envelope.type as Consumed;
  switch (type) {
    case 'ProjectCreated':
    case 'ProjectUpdated': {
      const { projectId, sourceLocale } = projectEventDataSchemas[type].parse(envelope.data);
      return (tx) => sync.projectChanged({ projectId, sourceLocale, updatedAt: envelope.occurredAt }, tx);
    }
    case 'ProjectDeleted': {
      const { projectId } = projectEventDataSchemas.ProjectDeleted.parse(envelope.data);
      return (tx) => sync.projectDeleted(projectId, tx);
    }
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
export function subscribeTokenConsumer(deps: {
  bus: Bus;
  db: Db;
  sync: TokenSync;
  logger: Logger;
  queue?: string;
}): Promise<void> {
  return subscribeOnce({
    bus: deps.bus,
    db: deps.db,
    queue: deps.queue ?? TOKEN_QUEUE,
    eventTypes: CONSUMED,
    effectOf: (envelope) => effectOf(envelope, deps.sync),
    logger: deps.logger,
  });
}
