import type { Redis } from 'ioredis';
import type { Bus } from '@tolk/bus';
import { createInternalCallerSigner, createPrincipalSigner } from '@tolk/http';
import type { Logger } from '@tolk/logger';
import type { GatewayConfig } from '../config.js';
import type { FailedAuthLimit } from '../rate-limit/failed-auth.js';
import { createAccessTokenVerifier } from './access-token-verifier.js';
import { createAuthenticator, type PrincipalResolver } from './authenticate.js';
import { createDeletedUsers, listenForUserDeletions, subscribeUserDeletions } from './deleted-users.js';
import { subscribeMembershipEvictions } from './membership-events.js';
import { createMembershipCache, createMembershipLookup, requireProjectMember } from './project-membership.js';
import { createProjectTokenResolver, createTokenIntrospection } from './project-token-resolver.js';
import { listenForTokenEvictions, subscribeTokenRevocations } from './token-events.js';
import { createTokenUsageReporter } from './token-usage.js';

/**
 * Who gets through the gateway: access tokens (refused for a deleted account), project API tokens
 * (resolved by token-service, cached), and project membership (asked of project-service, cached);
 * with the evictions that keep those caches true, and `close`, which stops them.
 */
export function createGatewayAccess(deps: {
  config: GatewayConfig;
  redis: Redis | undefined;
  logger: Logger;
  /** Refused tokens per client address. */
  failedAuth: FailedAuthLimit;
  /** Resolves `tolk_...` project API tokens instead of token-service (tests). */
  resolveProjectToken?: PrincipalResolver;
}) {
  const { config, redis, logger } = deps;
  const signInternalCaller = createInternalCallerSigner(config.INTERNAL_JWT_SECRET, 'gateway');
  // Project API tokens are resolved by token-service; without it they are refused as unknown.
  const tokenServiceUrl = config.UPSTREAMS.token;
  const tokenUsage = tokenServiceUrl
    ? createTokenUsageReporter({
        tokenServiceUrl,
        signInternalCaller,
        timeoutMs: config.TOKEN_LOOKUP_TIMEOUT_MS,
        flushMs: config.TOKEN_USAGE_FLUSH_MS,
        intervalMs: 60_000,
        logger,
      })
    : undefined;
  const projectTokens = createProjectTokenResolver({
    introspect: tokenServiceUrl
      ? createTokenIntrospection({
          tokenServiceUrl,
          signInternalCaller,
          timeoutMs: config.TOKEN_LOOKUP_TIMEOUT_MS,
        })
      : async () => null,
    redis,
    keyPrefix: config.TOKEN_CACHE_KEY_PREFIX,
    redisTtlSeconds: config.TOKEN_CACHE_TTL_SECONDS,
    localTtlMs: config.TOKEN_LOCAL_CACHE_TTL_MS,
    localMaxEntries: config.TOKEN_LOCAL_CACHE_SIZE,
    noteUse: tokenUsage?.noteUse,
    logger,
  });
  const tokenEvictionChannel = `${config.TOKEN_CACHE_KEY_PREFIX}:revoked`;
  const tokenEvictions = redis
    ? listenForTokenEvictions({ redis, channel: tokenEvictionChannel, resolver: projectTokens, logger })
    : undefined;

  // Deleted accounts: their access tokens are refused until they would have expired.
  const deletedUsersTtlMs = config.ACCESS_TOKEN_MAX_TTL_SECONDS * 1000;
  const deletedUsers = createDeletedUsers({
    redis,
    key: `${config.TOKEN_CACHE_KEY_PREFIX}:deleted-users`,
    ttlMs: deletedUsersTtlMs,
    logger,
  });
  const userDeletionChannel = `${config.TOKEN_CACHE_KEY_PREFIX}:user-deleted`;
  const userDeletions = redis
    ? listenForUserDeletions({ redis, channel: userDeletionChannel, deletedUsers, logger })
    : undefined;

  const requireAccess = createAuthenticator({
    verifyAccessToken: createAccessTokenVerifier({
      publicKeyPem: config.JWT_PUBLIC_KEY,
      cacheSize: config.ACCESS_TOKEN_CACHE_SIZE,
      deletedUsers,
    }),
    resolveProjectToken: deps.resolveProjectToken ?? projectTokens.resolve,
    signPrincipal: createPrincipalSigner(config.INTERNAL_JWT_SECRET),
    failedAuth: deps.failedAuth,
  });

  // Project-scoped routes are authorised by project-service: without it they are not routed.
  const projectServiceUrl = config.UPSTREAMS.project;
  const membershipCache = projectServiceUrl
    ? createMembershipCache({
        redis,
        keyPrefix: config.MEMBERSHIP_CACHE_KEY_PREFIX,
        memberTtlSeconds: config.MEMBERSHIP_CACHE_TTL_SECONDS,
        nonMemberTtlSeconds: config.MEMBERSHIP_CACHE_NEGATIVE_TTL_SECONDS,
        lookup: createMembershipLookup({
          projectServiceUrl,
          signInternalCaller,
          timeoutMs: config.MEMBERSHIP_LOOKUP_TIMEOUT_MS,
        }),
        logger,
      })
    : undefined;

  return {
    requireAccess,
    /** Lets only the project's members through; undefined without project-service. */
    requireMember: membershipCache
      ? requireProjectMember({ membershipOf: membershipCache.membershipOf })
      : undefined,
    /**
     * Evictions from the bus: memberships where they are cached (Redis); tokens always (in-process
     * caches too); deleted accounts. Resolves once the consumers are bound.
     */
    async startConsumers(bus: Bus): Promise<void> {
      await Promise.all([
        membershipCache && redis
          ? subscribeMembershipEvictions({
              bus,
              queue: config.MEMBERSHIP_EVENTS_QUEUE,
              cache: membershipCache,
              logger,
            })
          : undefined,
        tokenServiceUrl
          ? subscribeTokenRevocations({
              bus,
              queue: config.TOKEN_EVENTS_QUEUE,
              redis,
              channel: tokenEvictionChannel,
              resolver: projectTokens,
              logger,
            })
          : undefined,
        subscribeUserDeletions({
          bus,
          queue: config.USER_EVENTS_QUEUE,
          redis,
          channel: userDeletionChannel,
          deletedUsers,
          ttlMs: deletedUsersTtlMs,
          logger,
        }),
      ]);
    },
    async close(): Promise<void> {
      await tokenUsage?.close();
      await tokenEvictions?.close();
      await userDeletions?.close();
    },
  };
}
