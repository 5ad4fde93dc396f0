import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { NotFoundError } from '@tolk/errors';
import { requestIdOf } from '@tolk/http';
import type { Logger } from '@tolk/logger';
import { noteMembershipCacheLookup } from './cache-metrics.js';
import { createInternalLookup } from './internal-lookup.js';

/** The caller's role in the project, or null: not a member, or no such project (never told apart). */
export type Membership = { role: string } | null;

/** `requestId`: the request that needs the answer, for project-service's log lines. */
export type MembershipLookup = (projectId: string, userId: string, requestId?: string) => Promise<Membership>;

const membershipResponseSchema = z.object({ role: z.string().min(1) });

// The same words as project-service's own 404, so the two cannot be told apart either.
const PROJECT_NOT_FOUND = 'Project not found';
// Project ids are `prj_` + hex; project-service names nothing outside this either (its README).
const PLAUSIBLE_PROJECT_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * Asks project-service's internal API whether a user is a member of a project:
 * `GET /internal/projects/{projectId}/members/{userId}` → 200 `{role}` or 404. Unreachable (or any
 * other answer) is 503 SERVICE_UNAVAILABLE, silent for `timeoutMs` is 504 GATEWAY_TIMEOUT.
 */
export function createMembershipLookup(deps: {
  projectServiceUrl: string;
  signInternalCaller: () => Promise<string>;
  timeoutMs: number;
}): MembershipLookup {
  const lookUp = createInternalLookup({
    ...deps,
    service: 'project service',
    baseUrl: deps.projectServiceUrl,
  });
  return async function lookUpMembership(projectId, userId, requestId) {
    const path = `/internal/projects/${encodeURIComponent(projectId)}/members/${encodeURIComponent(userId)}`;
    return lookUp(path, membershipResponseSchema, { requestId });
  };
}

/**
 * Membership answers cached in Redis, shared by every gateway instance: members for
 * `memberTtlSeconds`, non-members (and missing projects) for `nonMemberTtlSeconds`.
 *
 * Eviction is one INCR of a per-project generation: an entry is valid only while it carries the
 * generation that was current when its lookup started. `evictProject` serves both
 * ProjectMembershipChanged and ProjectDeleted (a membership change is rare enough that the whole
 * project's few entries may go), and it closes the race a plain DEL leaves open: a lookup that
 * began before the change but writes its (now stale) answer after the eviction writes it under
 * the old generation, where it is never read.
 *
 * A hit costs one MGET (entry and generation in one round trip). When Redis is not configured,
 * down or slow (bounded by the client's command timeout), every request asks project-service:
 * slower, still correct, never failing because of Redis.
 */
export function createMembershipCache(deps: {
  redis?: Redis;
  keyPrefix: string;
  memberTtlSeconds: number;
  nonMemberTtlSeconds: number;
  lookup: MembershipLookup;
  logger: Logger;
}) {
  const { redis, keyPrefix, lookup, logger } = deps;
  // A generation must outlive every entry written under an older one (else it would read as 0
  // again and revive them); a day also bounds what deleted projects leave behind.
  const generationTtlSeconds = Math.max(
    24 * 60 * 60,
    2 * Math.max(deps.memberTtlSeconds, deps.nonMemberTtlSeconds),
  );

  // encodeURIComponent escapes `:`, so no (project, user) pair can collide with another.
  const generationKey = (projectId: string) => `${keyPrefix}:gen:${encodeURIComponent(projectId)}`;
  const entryKey = (projectId: string, userId: string) =>
    `${keyPrefix}:member:${encodeURIComponent(projectId)}:${encodeURIComponent(userId)}`;

  /** The cached answer, or the generation to store a fresh one under; undefined without Redis. */
  async function readCache(
    projectId: string,
    userId: string,
  ): Promise<{ hit: true; membership: Membership } | { hit: false; generation: string } | undefined> {
    if (!redis || redis.status !== 'ready') return undefined;
    try {
      const [entry, stored] = await redis.mget(entryKey(projectId, userId), generationKey(projectId));
      const generation = stored ?? '0';
      // An entry is `<generation>|<role>`; an empty role is a cached "not a member".
      if (entry?.startsWith(`${generation}|`)) {
        const role = entry.slice(generation.length + 1);
        return { hit: true, membership: role ? { role } : null };
      }
      return { hit: false, generation };
    } catch (err) {
      logger.warn({ err }, 'membership cache unavailable; asking project-service');
      return undefined;
    }
  }

  return {
    async membershipOf(projectId: string, userId: string, requestId?: string): Promise<Membership> {
      const cached = await readCache(projectId, userId);
      // Redis away or not configured counts as a miss: project-service is asked either way.
      noteMembershipCacheLookup(cached?.hit === true);
      if (cached?.hit) return cached.membership;
      const membership = await lookup(projectId, userId, requestId);
      if (cached && redis) {
        const ttl = membership ? deps.memberTtlSeconds : deps.nonMemberTtlSeconds;
        // Not awaited: the answer is known, and a lost write only costs a later lookup.
        redis
          .set(entryKey(projectId, userId), `${cached.generation}|${membership?.role ?? ''}`, 'EX', ttl)
          .catch((err: unknown) => logger.warn({ err }, 'could not cache a membership answer'));
      }
      return membership;
    },

    /** Forgets every cached answer about the project, in every gateway instance at once. */
    async evictProject(projectId: string): Promise<void> {
      if (!redis) return;
      const key = generationKey(projectId);
      await redis.multi().incr(key).expire(key, generationTtlSeconds).exec();
    },
  };
}

export type MembershipCache = ReturnType<typeof createMembershipCache>;

/** The path's project id, decoded as the service will decode it; undefined if it cannot name one. */
function projectIdOf(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  let projectId: string;
  try {
    projectId = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  return PLAUSIBLE_PROJECT_ID.test(projectId) ? projectId : undefined;
}

/**
 * Lets a request of a project-scoped route through only for a member of the path's project.
 * Everyone else — and every project that does not exist — gets the same 404, before any service
 * sees the request, so project ids cannot be probed. Runs after authentication.
 */
export function requireProjectMember(deps: {
  membershipOf: (projectId: string, userId: string, requestId?: string) => Promise<Membership>;
}): RequestHandler {
  return async (req, _res, next) => {
    const principal = req.principal;
    if (!principal) throw new Error('requireProjectMember runs after authentication');
    const projectId = projectIdOf(req.params['projectId']);
    if (!projectId) throw new NotFoundError(PROJECT_NOT_FOUND);
    if (principal.kind === 'project_token') {
      // The seam for project API tokens: one reaches its own project and no other.
      if (principal.projectId !== projectId) throw new NotFoundError(PROJECT_NOT_FOUND);
    } else if (!(await deps.membershipOf(projectId, principal.userId, requestIdOf(req)))) {
      throw new NotFoundError(PROJECT_NOT_FOUND);
    }
    next();
  };
}
