import { z } from 'zod';
import { INTERNAL_CALLER_HEADER, REQUEST_ID_HEADER } from '@tolk/contracts';
import { AppError } from '@tolk/http';
import { currentRequestId, type Logger } from '@tolk/logger';

/** What identity-service tells other services about a user. */
export type DirectoryUser = { userId: string; email: string; name: string | null };

const directoryUserSchema = z.object({ userId: z.string(), email: z.string(), name: z.string().nullable() });
const usersLookupSchema = z.object({ users: z.array(directoryUserSchema) });

/** identity-service answers at most this many ids per lookup. */
const LOOKUP_BATCH_SIZE = 1000;

type Answer = { status: number; body: unknown };

/**
 * identity-service's internal API, over HTTP: users by email and by id. Unreachable or faulty →
 * 503 SERVICE_UNAVAILABLE; slower than `timeoutMs` → 504 GATEWAY_TIMEOUT (DESIGN §3).
 */
export function createIdentityClient(deps: {
  baseUrl: string;
  timeoutMs: number;
  signInternalCaller: () => Promise<string>;
  logger: Logger;
}) {
  const { baseUrl, timeoutMs, signInternalCaller, logger } = deps;

  function unavailable(details: Record<string, unknown>, why: string): AppError {
    logger.error(details, `identity-service ${why}`);
    return new AppError('SERVICE_UNAVAILABLE', 'The user directory is unavailable; try again shortly');
  }

  async function call(path: string, init: { method: 'GET' | 'POST'; body?: unknown }): Promise<Answer> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      [INTERNAL_CALLER_HEADER]: await signInternalCaller(),
    };
    const requestId = currentRequestId();
    if (requestId) headers[REQUEST_ID_HEADER] = requestId;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    try {
      // One deadline for the answer and its body.
      const response = await fetch(`${baseUrl}${path}`, {
        method: init.method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      return { status: response.status, body };
    } catch (err) {
      if (err instanceof Error && err.name === 'TimeoutError') {
        logger.warn({ path, timeoutMs }, 'identity-service did not answer in time');
        throw new AppError('GATEWAY_TIMEOUT', `The user directory did not answer within ${timeoutMs} ms`);
      }
      throw unavailable({ err, path }, 'is not reachable');
    }
  }

  function parse<S extends z.ZodType>(schema: S, answer: Answer, path: string): z.infer<S> {
    const parsed = schema.safeParse(answer.body);
    if (answer.status !== 200 || !parsed.success) {
      throw unavailable({ path, status: answer.status }, 'answered unexpectedly');
    }
    return parsed.data;
  }

  return {
    /** The user with that email (as typed; identity-service normalises it), or undefined. */
    async findUserByEmail(email: string): Promise<DirectoryUser | undefined> {
      const path = `/internal/users?${new URLSearchParams({ email })}`;
      const answer = await call(path, { method: 'GET' });
      if (answer.status === 404) return undefined;
      return parse(directoryUserSchema, answer, '/internal/users');
    },

    /** The users among `userIds` that exist. */
    async findUsersByIds(userIds: string[]): Promise<DirectoryUser[]> {
      const users: DirectoryUser[] = [];
      for (let start = 0; start < userIds.length; start += LOOKUP_BATCH_SIZE) {
        const path = '/internal/users/lookup';
        const batch = userIds.slice(start, start + LOOKUP_BATCH_SIZE);
        const answer = await call(path, { method: 'POST', body: { userIds: batch } });
        users.push(...parse(usersLookupSchema, answer, path).users);
      }
      return users;
    },
  };
}

export type IdentityClient = ReturnType<typeof createIdentityClient>;
