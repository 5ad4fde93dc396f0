import type { Bus } from '@tolk/bus';
import { projectEventDataSchemas } from '@tolk/contracts';
import type { Logger } from '@tolk/logger';
import type { MembershipCache } from './project-membership.js';

const EVICTING_EVENTS = ['ProjectMembershipChanged', 'ProjectDeleted'] as const;

// Retries back off up to 5 s each: 30 tries outlast the cache TTLs, so an eviction that meets
// Redis down is either applied once it is back or no longer needed (the entry has expired).
const MAX_ATTEMPTS = 30;

/**
 * Evicts cached memberships when project-service reports a change: a member added or removed
 * (ProjectMembershipChanged) or the project deleted (ProjectDeleted). Every gateway instance
 * consumes the one durable `queue`; an eviction in the shared Redis reaches all of them. Evicting
 * twice is harmless, so redeliveries need no bookkeeping.
 */
export function subscribeMembershipEvictions(deps: {
  bus: Bus;
  queue: string;
  cache: Pick<MembershipCache, 'evictProject'>;
  logger: Logger;
}): Promise<void> {
  return deps.bus.subscribe({
    queue: deps.queue,
    eventTypes: [...EVICTING_EVENTS],
    maxAttempts: MAX_ATTEMPTS,
    handler: async (envelope) => {
      const type = envelope.type as (typeof EVICTING_EVENTS)[number];
      const schema = projectEventDataSchemas[type] as
        (typeof projectEventDataSchemas)[typeof type] | undefined;
      if (!schema) return;
      const { projectId } = schema.parse(envelope.data);
      await deps.cache.evictProject(projectId);
      deps.logger.debug({ eventType: type, projectId }, 'membership cache evicted');
    },
  });
}
