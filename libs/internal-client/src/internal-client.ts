import type { z } from 'zod';
import { INTERNAL_CALLER_HEADER, REQUEST_ID_HEADER } from '@tolk/contracts';
import { currentRequestId, type Logger } from '@tolk/logger';
import { AppError } from '@tolk/errors';

export type InternalAnswer = { status: number; body: unknown };

/** Where another service's internal API answers, and how this one calls it. */
export type InternalClientOptions = {
  baseUrl: string;
  timeoutMs: number;
  signInternalCaller: () => Promise<string>;
  logger: Logger;
};

/**
 * A client of another service's `/internal/...` API: signs every call as this service, carries
 * the request id, and turns the other service's trouble into this service's answer —
 * unreachable or faulty → 503 SERVICE_UNAVAILABLE, slower than `timeoutMs` → 504 GATEWAY_TIMEOUT
 * (DESIGN §3). The cause goes to the log, never to the client.
 */
export function createInternalClient(
  deps: InternalClientOptions & {
    /** The other service, for log lines (`identity-service`). */
    service: string;
    /** What it is to a user, for messages (`user directory`). */
    serves: string;
  },
) {
  const { service, serves, baseUrl, timeoutMs, signInternalCaller, logger } = deps;

  function unavailable(details: Record<string, unknown>, why: string): AppError {
    logger.error(details, `${service} ${why}`);
    return new AppError('SERVICE_UNAVAILABLE', `The ${serves} is unavailable; try again shortly`);
  }

  /** One request under one deadline for the answer and its body; failures mapped as above. */
  async function send(
    path: string,
    init: { method: 'GET' | 'POST'; body?: unknown; accept: string },
  ): Promise<{ response: Response; bytes: Buffer }> {
    const headers: Record<string, string> = {
      accept: init.accept,
      [INTERNAL_CALLER_HEADER]: await signInternalCaller(),
    };
    const requestId = currentRequestId();
    if (requestId) headers[REQUEST_ID_HEADER] = requestId;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        method: init.method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { response, bytes: Buffer.from(await response.arrayBuffer()) };
    } catch (err) {
      if (err instanceof Error && err.name === 'TimeoutError') {
        logger.warn({ path, timeoutMs }, `${service} did not answer in time`);
        throw new AppError('GATEWAY_TIMEOUT', `The ${serves} did not answer within ${timeoutMs} ms`);
      }
      throw unavailable({ err, path }, 'is not reachable');
    }
  }

  return {
    async call(
      path: string,
      init: { method: 'GET' | 'POST'; body?: unknown } = { method: 'GET' },
    ): Promise<InternalAnswer> {
      const { response, bytes } = await send(path, { ...init, accept: 'application/json' });
      let body: unknown;
      try {
        body = bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : undefined;
      } catch {
        body = undefined;
      }
      return { status: response.status, body };
    },

    /**
     * A GET whose answer is not JSON (a stored document as it is): the status, the headers and
     * the raw body.
     */
    async fetchBytes(path: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
      const { response, bytes } = await send(path, { method: 'GET', accept: 'application/octet-stream' });
      return { status: response.status, headers: response.headers, bytes };
    },

    /** Any answer but 200 is the other service's trouble: 503, with the cause in the log. */
    unexpected(path: string, status: number): AppError {
      return unavailable({ path, status }, 'answered unexpectedly');
    },

    /** The 200 answer's body as the schema says, or 503 for any other answer. */
    expect<S extends z.ZodType>(schema: S, answer: InternalAnswer, path: string): z.infer<S> {
      const parsed = schema.safeParse(answer.body);
      if (answer.status !== 200 || !parsed.success) {
        throw unavailable({ path, status: answer.status }, 'answered unexpectedly');
      }
      return parsed.data;
    },
  };
}
