import type { z } from 'zod';
import { errorResponseSchema } from '@tolk/contracts';
import { ApiError, InterruptedError, NetworkError } from '../errors.js';
import { sleep } from '../sleep.js';

/** Supplies the bearer token; `renew` is asked once after a 401 (a session's access token expired). */
export type Authenticator = {
  token(): Promise<string>;
  renew?(): Promise<boolean>;
};

export type RequestOptions<Schema extends z.ZodType> = {
  schema?: Schema;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** false: no Authorization header (signup, login, device login, refresh). */
  authenticated?: boolean;
};

export type ApiClientOptions = {
  apiUrl: string;
  auth?: Authenticator;
  signal?: AbortSignal;
  /** Retries after a 429 or a 5xx (and, for requests that change nothing twice, a network error). */
  maxRetries?: number;
  /** First backoff; doubled each retry, capped at 20 s; `Retry-After` wins when the server sends it. */
  retryBaseMs?: number;
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
};

const DEFAULT_MAX_RETRIES = 4;
const MAX_BACKOFF_MS = 20_000;
const REQUEST_TIMEOUT_MS = 60_000;
/** Retrying these cannot do anything twice: the same upload is the same version. */
const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE', 'HEAD']);

/**
 * The one way the CLI talks to Tolk: JSON in and out, the error envelope turned into ApiError,
 * answers checked against the contracts' zod schemas, and backoff on 429 and 5xx.
 */
export function createApiClient(options: ApiClientOptions) {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const retryBaseMs = options.retryBaseMs ?? 500;

  async function request<Schema extends z.ZodType = z.ZodUnknown>(
    method: string,
    path: string,
    requestOptions: RequestOptions<Schema> = {},
  ): Promise<z.infer<Schema>> {
    const url = new URL(apiUrl + path);
    for (const [name, value] of Object.entries(requestOptions.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const authenticated = requestOptions.authenticated ?? true;
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await send(method, url, requestOptions.body, authenticated);
      } catch (error) {
        if (error instanceof InterruptedError || options.signal?.aborted) throw new InterruptedError();
        const reason = describeNetworkError(error);
        if (attempt < maxRetries && IDEMPOTENT.has(method)) {
          await backoff(attempt, undefined, reason);
          continue;
        }
        throw new NetworkError(`${method} ${url.origin}${url.pathname}: ${reason}`);
      }
      if (response.ok) return parseAnswer(response, method, url, requestOptions.schema);
      const error = await readError(response);
      if (response.status === 401 && authenticated && !renewed && options.auth?.renew) {
        renewed = true;
        if (await options.auth.renew()) {
          attempt--;
          continue;
        }
        throw error;
      }
      const retryable = response.status === 429 || (response.status >= 500 && response.status !== 501);
      if (retryable && attempt < maxRetries && (response.status === 429 || IDEMPOTENT.has(method))) {
        await backoff(attempt, error.retryAfterSeconds, `${error.status} ${error.code}`);
        continue;
      }
      throw error;
    }
  }

  async function send(method: string, url: URL, body: unknown, authenticated: boolean): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'tolk-cli' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (authenticated && options.auth) headers['authorization'] = `Bearer ${await options.auth.token()}`;
    const signals = [AbortSignal.timeout(REQUEST_TIMEOUT_MS)];
    if (options.signal) signals.push(options.signal);
    return fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.any(signals),
    });
  }

  async function backoff(attempt: number, retryAfterSeconds: number | undefined, reason: string) {
    const exponential = Math.min(MAX_BACKOFF_MS, retryBaseMs * 2 ** attempt);
    const jitter = exponential * 0.2 * Math.random();
    const delayMs =
      retryAfterSeconds !== undefined ? Math.min(60_000, retryAfterSeconds * 1000) : exponential + jitter;
    options.onRetry?.({ attempt: attempt + 1, delayMs, reason });
    await sleep(delayMs, options.signal);
  }

  return {
    apiUrl,
    request,
    get: <Schema extends z.ZodType>(path: string, schema: Schema, query?: RequestOptions<Schema>['query']) =>
      request('GET', path, { schema, query }),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

async function parseAnswer<Schema extends z.ZodType>(
  response: Response,
  method: string,
  url: URL,
  schema: Schema | undefined,
): Promise<z.infer<Schema>> {
  const text = await response.text();
  if (!schema) return (text ? safeJson(text) : undefined) as z.infer<Schema>;
  const result = schema.safeParse(text ? safeJson(text) : undefined);
  if (!result.success) {
    throw new ApiError(
      502,
      'UNEXPECTED_RESPONSE',
      `${method} ${url.pathname} answered ${response.status} with a body this version of tolk does not understand ` +
        `(${result.error.issues[0]?.path.join('.') || 'body'}: ${result.error.issues[0]?.message}); is --api a Tolk server?`,
    );
  }
  return result.data;
}

async function readError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  const envelope = errorResponseSchema.safeParse(safeJson(text));
  const retryAfter = Number(response.headers.get('retry-after'));
  const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined;
  if (envelope.success) {
    const { code, message } = envelope.data.error;
    return new ApiError(response.status, code, message, retryAfterSeconds);
  }
  return new ApiError(
    response.status,
    `HTTP_${response.status}`,
    `the server answered ${response.status} ${response.statusText || ''}`.trim() + ' without an error body',
    retryAfterSeconds,
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  if ((error as Error).name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  return (error as Error).message ?? String(error);
}
