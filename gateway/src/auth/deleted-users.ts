import type { Redis } from 'ioredis';
import type { Bus } from '@tolk/bus';
import { userEventDataSchemas } from '@tolk/contracts';
import type { Logger } from '@tolk/logger';
import { subscriberConnection } from '../rate-limit/redis-client.js';

// As for token revocations: retries outlast a Redis outage worth waiting for.
const MAX_ATTEMPTS = 30;

/**
 * Users whose accounts were deleted (UserDeleted). An access token is a stateless JWT that stays
 * valid until its `exp`, so the gateway refuses the tokens of these users for `ttlMs` after the
 * deletion — the longest an access token lives — and forgets them then: the list is bounded by
 * the deletions of one token lifetime.
 *
 * `has` is asked on every request and reads only this instance's memory. The list reaches every
 * instance as token revocations do: the instance that consumes UserDeleted adds it to a Redis
 * sorted set (scored by when the entry may go) and announces it over pub/sub; an instance that
 * starts, or reconnects to Redis, reads the whole set. Without Redis only the consuming instance
 * learns of it.
 */
export function createDeletedUsers(deps: {
  redis?: Redis;
  key: string;
  ttlMs: number;
  logger: Logger;
  now?: () => number;
}) {
  const { redis, key, ttlMs, logger } = deps;
  const now = deps.now ?? Date.now;
  /** userId → until when its tokens are refused; in (about) that order, as entries are added. */
  const until = new Map<string, number>();

  function forgetExpired(): void {
    const at = now();
    for (const [userId, expiresAt] of until) {
      if (expiresAt > at) break;
      until.delete(userId);
    }
  }

  function remember(userId: string, expiresAt: number): void {
    if (expiresAt <= now()) return;
    until.delete(userId);
    until.set(userId, Math.max(expiresAt, until.get(userId) ?? 0));
    forgetExpired();
  }

  return {
    /** Whether this user's access tokens are refused (their account was deleted). */
    has(userId: string): boolean {
      const expiresAt = until.get(userId);
      if (expiresAt === undefined) return false;
      if (expiresAt > now()) return true;
      until.delete(userId);
      return false;
    },

    /** In this instance only (the pub/sub message, or the consumer itself). */
    addLocal(userId: string, expiresAt: number = now() + ttlMs): void {
      remember(userId, expiresAt);
    },

    /** The shared entry, for instances that start or reconnect later; expired ones go with it. */
    async addShared(userId: string, expiresAt: number): Promise<void> {
      if (!redis) return;
      await redis
        .multi()
        .zadd(key, expiresAt, userId)
        .zremrangebyscore(key, '-inf', now())
        .pexpire(key, ttlMs)
        .exec();
    },

    /** Every shared entry still in force, into this instance's memory. */
    async loadShared(): Promise<void> {
      if (!redis) return;
      const entries = await redis.zrangebyscore(key, now(), '+inf', 'WITHSCORES');
      for (let i = 0; i + 1 < entries.length; i += 2) remember(entries[i]!, Number(entries[i + 1]));
      logger.debug({ users: entries.length / 2 }, 'deleted users loaded');
    },
  };
}

export type DeletedUsers = ReturnType<typeof createDeletedUsers>;

/**
 * UserDeleted: every gateway instance consumes the one durable `queue`. The instance that gets
 * it refuses the user at once, writes the shared entry and tells all instances over Redis
 * pub/sub (`channel`).
 */
export function subscribeUserDeletions(deps: {
  bus: Bus;
  queue: string;
  redis?: Redis;
  channel: string;
  deletedUsers: Pick<DeletedUsers, 'addLocal' | 'addShared'>;
  ttlMs: number;
  logger: Logger;
  now?: () => number;
}): Promise<void> {
  const now = deps.now ?? Date.now;
  return deps.bus.subscribe({
    queue: deps.queue,
    eventTypes: ['UserDeleted'],
    maxAttempts: MAX_ATTEMPTS,
    handler: async (envelope) => {
      if (envelope.type !== 'UserDeleted') return;
      const { userId } = userEventDataSchemas.UserDeleted.parse(envelope.data);
      // From the deletion, not from now: a late delivery keeps the entry no longer than needed.
      const expiresAt = Math.max(envelope.occurredAt, 0) + deps.ttlMs;
      if (expiresAt <= now()) return;
      deps.deletedUsers.addLocal(userId, expiresAt);
      if (deps.redis) {
        await deps.deletedUsers.addShared(userId, expiresAt);
        await deps.redis.publish(deps.channel, JSON.stringify({ userId, expiresAt }));
      }
      deps.logger.debug({ userId }, 'deleted user refused');
    },
  });
}

/**
 * Refuses deleted users in this instance as their deletions are announced, and reads the shared
 * list whenever the subscriber connection is (re)established, so nothing announced while it was
 * away is missed.
 */
export function listenForUserDeletions(deps: {
  redis: Redis;
  channel: string;
  deletedUsers: Pick<DeletedUsers, 'addLocal' | 'loadShared'>;
  logger: Logger;
}): { close(): Promise<void> } {
  // A connection in subscriber mode can do nothing else: a connection of its own.
  const subscriber = subscriberConnection(deps.redis);
  subscriber.on('error', (err: Error) => deps.logger.debug({ err }, 'user deletion channel error'));
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== deps.channel) return;
    try {
      const { userId, expiresAt } = JSON.parse(message) as { userId: unknown; expiresAt: unknown };
      if (typeof userId === 'string' && typeof expiresAt === 'number')
        deps.deletedUsers.addLocal(userId, expiresAt);
    } catch {
      deps.logger.debug('unreadable user deletion message ignored');
    }
  });
  // Read on every (re)connection of either connection: whichever is back last sees the set whole.
  const load = () => {
    deps.deletedUsers
      .loadShared()
      .catch((err: unknown) => deps.logger.warn({ err }, 'could not read the deleted users'));
  };
  subscriber.on('ready', load);
  deps.redis.on('ready', load);
  if (deps.redis.status === 'ready') load();
  subscriber
    .subscribe(deps.channel)
    .catch((err: unknown) => deps.logger.warn({ err }, 'could not listen for user deletions'));
  return {
    async close() {
      deps.redis.off('ready', load);
      // Nothing to flush on a subscribed connection, and QUIT would wait for a Redis that is away.
      subscriber.disconnect();
    },
  };
}
