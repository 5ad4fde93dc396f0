import type { z } from 'zod';
import { INTERNAL_CALLER_HEADER, REQUEST_ID_HEADER } from '@tolk/contracts';
import { AppError } from '@tolk/errors';

/**
 * Asks another service's internal API about one thing, signed as the gateway and carrying the
 * request id: 200 → the body as `schema` says, 404 → null. Unreachable, any other answer or a body
 * not as the schema says → 503 SERVICE_UNAVAILABLE; silent for `timeoutMs` → 504 GATEWAY_TIMEOUT.
 * A 503 that says when to come back (a service whose database restarts: `Retry-After`) passes its
 * `Retry-After` on, so the client waits that long instead of guessing.
 * A POST when there is a `body`, else a GET.
 */
export function createInternalLookup(deps: {
  /** The service as a user knows it, for messages (`project service`). */
  service: string;
  baseUrl: string;
  signInternalCaller: () => Promise<string>;
  timeoutMs: number;
}) {
  const unavailable = (cause: unknown, retryAfter?: string | null) =>
    Object.assign(
      new AppError(
        'SERVICE_UNAVAILABLE',
        `The ${deps.service} is unavailable`,
        retryAfter && /^\d{1,5}$/.test(retryAfter) ? { retryAfterSeconds: Number(retryAfter) } : {},
      ),
      { cause },
    );

  return async function lookUp<S extends z.ZodType>(
    path: string,
    schema: S,
    init: { body?: unknown; requestId?: string },
  ): Promise<z.infer<S> | null> {
    let response: Response;
    let body: string;
    try {
      response = await fetch(`${deps.baseUrl}${path}`, {
        method: init.body === undefined ? 'GET' : 'POST',
        headers: {
          [INTERNAL_CALLER_HEADER]: await deps.signInternalCaller(),
          ...(init.requestId ? { [REQUEST_ID_HEADER]: init.requestId } : {}),
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(deps.timeoutMs),
      });
      body = await response.text();
    } catch (err) {
      if (err instanceof Error && err.name === 'TimeoutError') {
        throw Object.assign(new AppError('GATEWAY_TIMEOUT', `The ${deps.service} did not answer in time`), {
          cause: err,
        });
      }
      throw unavailable(err);
    }
    if (response.status === 404) return null;
    if (response.status !== 200) {
      throw unavailable(
        new Error(`${path} answered ${response.status}: ${body.slice(0, 200)}`),
        response.status === 503 ? response.headers.get('retry-after') : undefined,
      );
    }
    try {
      return schema.parse(JSON.parse(body));
    } catch (err) {
      throw unavailable(err);
    }
  };
}
