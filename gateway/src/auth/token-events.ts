import type { Redis } from 'ioredis';
import type { Bus } from '@tolk/bus';
import { tokenEventDataSchemas } from '@tolk/contracts';
import type { Logger } from '@tolk/logger';
import type { ProjectTokenResolver } from './project-token-resolver.js';
import { subscriberConnection } from '../rate-limit/redis-client.js';

// As for membership evictions: retries outlast the cache TTL, after which they are not needed.
const MAX_ATTEMPTS = 30;

/**
 * TokenRevoked (a token revoked, or its project deleted): every gateway instance consumes the
 * one durable `queue`. The instance that gets it writes the shared tombstone and tells all
 * instances, itself included, to evict the token from their in-process caches over Redis pub/sub
 * (`channel`). Without Redis it evicts its own.
 */
export function subscribeTokenRevocations(deps: {
  bus: Bus;
  queue: string;
  redis?: Redis;
  channel: string;
  resolver: Pick<ProjectTokenResolver, 'revokeShared' | 'evictLocal'>;
  logger: Logger;
}): Promise<void> {
  return deps.bus.subscribe({
    queue: deps.queue,
    eventTypes: ['TokenRevoked'],
    maxAttempts: MAX_ATTEMPTS,
    handler: async (envelope) => {
      if (envelope.type !== 'TokenRevoked') return;
      const { tokenHash, tokenId } = tokenEventDataSchemas.TokenRevoked.parse(envelope.data);
      deps.resolver.evictLocal(tokenHash);
      if (deps.redis) {
        await deps.resolver.revokeShared(tokenHash);
        await deps.redis.publish(deps.channel, tokenHash);
      }
      deps.logger.debug({ tokenId }, 'project token evicted');
    },
  });
}

/** Evicts tokens from this instance's in-process cache as revocations are announced. */
export function listenForTokenEvictions(deps: {
  redis: Redis;
  channel: string;
  resolver: Pick<ProjectTokenResolver, 'evictLocal'>;
  logger: Logger;
}): { close(): Promise<void> } {
  // A connection in subscriber mode can do nothing else: a connection of its own.
  const subscriber = subscriberConnection(deps.redis);
  subscriber.on('error', (err: Error) => deps.logger.debug({ err }, 'token eviction channel error'));
  subscriber.on('message', (channel: string, tokenHash: string) => {
    if (channel === deps.channel && /^[0-9a-f]{64}$/.test(tokenHash)) deps.resolver.evictLocal(tokenHash);
  });
  // Subscribed once connected, again after every reconnection (ioredis does it); until then the
  // in-process entries expire on their own.
  subscriber
    .subscribe(deps.channel)
    .catch((err: unknown) =>
      deps.logger.warn({ err }, 'could not listen for token evictions; in-process entries expire instead'),
    );
  return {
    async close() {
      // Nothing to flush on a subscribed connection, and QUIT would wait for a Redis that is away.
      subscriber.disconnect();
    },
  };
}
