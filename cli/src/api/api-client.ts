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
  /** Headers of the request beyond those every request has (`if-match`). */
  headers?: Record<string, string>;
};

export type ApiClientOptions = {
  apiUrl: string;
  auth?: Authenticator;
  signal?: AbortSignal;
  /**
   * Retries after a 429 (any method: the request was refused, not carried out), after a 5xx or a
   * lost connection only for requests that do nothing twice (GET, PUT, DELETE), and after a
   * connection that was never made for any method.
   */
  maxRetries?: number;
  /** First backoff; doubled each retry, capped at 20 s; `Retry-After` wins when the server sends it. */
  retryBaseMs?: number;
  onRetry?: (info: RetryInfo) => void;
};

export type RetryInfo = {
  /** 1 for the first retry. */
  attempt: number;
  maxRetries: number;
  delayMs: number;
  /** What failed: `429 RATE_LIMITED`, `503 SERVICE_UNAVAILABLE`, `ECONNREFUSED (...)`. */
  reason: string;
  /** `GET /v1/projects/.../locales`. */
  request: string;
};

const DEFAULT_MAX_RETRIES = 4;
const MAX_BACKOFF_MS = 20_000;
/** The longest `Retry-After` honoured; a server asking for more is retried after this. */
const MAX_RETRY_AFTER_MS = 60_000;
const REQUEST_TIMEOUT_MS = 60_000;
/**
 * Retrying these cannot do anything twice, even when the first attempt reached the server and
 * only its answer was lost: the same upload is the same version. A POST (create a project, add
 * a locale, rotate a refresh token) is not among them.
 */
const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE', 'HEAD']);
/** Network errors that mean no connection was made, so nothing reached the server. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * How long to wait before retry `attempt + 1`: the server's `Retry-After` (at most 60 s), else
 * `baseMs` doubled per attempt, capped at 20 s, plus up to 20 % jitter so that many clients
 * refused at once do not come back at once.
 */
export function retryDelayMs(
  attempt: number,
  retryAfterSeconds: number | undefined,
  baseMs: number,
  random: () => number = Math.random,
): number {
  if (retryAfterSeconds !== undefined) return Math.min(MAX_RETRY_AFTER_MS, retryAfterSeconds * 1000);
  const exponential = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
  return exponential + exponential * 0.2 * random();
}

/**
 * The one way the CLI talks to Tolk: JSON in and out, the error envelope turned into ApiError,
 * answers checked against the contracts' zod schemas, and backoff on 429 and 5xx.
 */
export function createApiClient(options: ApiClientOptions) {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const retryBaseMs = options.retryBaseMs ?? 500;

  /** The answer and its `ETag` (null when it has none). */
  async function exchange<Schema extends z.ZodType = z.ZodUnknown>(
    method: string,
    path: string,
    requestOptions: RequestOptions<Schema> = {},
  ): Promise<{ body: z.infer<Schema>; etag: string | null }> {
    const url = new URL(apiUrl + path);
    for (const [name, value] of Object.entries(requestOptions.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const authenticated = requestOptions.authenticated ?? true;
    const described = `${method} ${url.pathname}`;
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await send(method, url, requestOptions, authenticated);
      } catch (error) {
        if (error instanceof InterruptedError || options.signal?.aborted) throw new InterruptedError();
        const reason = describeNetworkError(error);
        if (attempt < maxRetries && (IDEMPOTENT.has(method) || neverConnected(error))) {
          await backoff(attempt, undefined, reason, described);
          continue;
        }
        throw new NetworkError(`${method} ${url.origin}${url.pathname}: ${reason}`);
      }
      if (response.ok) {
        const body = await parseAnswer(response, method, url, requestOptions.schema);
        return { body, etag: response.headers.get('etag') };
      }
      const error = await readError(response);
      if (response.status === 401 && authenticated && !renewed && options.auth?.renew) {
        renewed = true;
        if (await options.auth.renew()) {
          attempt--;
          continue;
        }
        throw error;
      }
      // A 429 was refused before anything was done; a 5xx may come after the work was done (a
      // project created, its answer lost), so only what does nothing twice is sent again.
      const retryable =
        response.status === 429 ||
        (response.status >= 500 && response.status !== 501 && IDEMPOTENT.has(method));
      if (retryable && attempt < maxRetries) {
        await backoff(attempt, error.retryAfterSeconds, `${error.status} ${error.code}`, described);
        continue;
      }
      throw error;
    }
  }

  async function send(
    method: string,
    url: URL,
    { body, headers: extra }: RequestOptions<z.ZodType>,
    authenticated: boolean,
  ): Promise<Response> {
    const headers: Record<string, string> = {
      ...extra,
      accept: 'application/json',
      'user-agent': 'tolk-cli',
    };
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

  /** Waits before the next attempt; Ctrl-C (the signal) ends the wait at once. */
  async function backoff(
    attempt: number,
    retryAfterSeconds: number | undefined,
    reason: string,
    request: string,
  ) {
    const delayMs = retryDelayMs(attempt, retryAfterSeconds, retryBaseMs);
    options.onRetry?.({ attempt: attempt + 1, maxRetries, delayMs, reason, request });
    await sleep(delayMs, options.signal);
  }

  async function request<Schema extends z.ZodType = z.ZodUnknown>(
    method: string,
    path: string,
    requestOptions: RequestOptions<Schema> = {},
  ): Promise<z.infer<Schema>> {
    return (await exchange(method, path, requestOptions)).body;
  }

  return {
    apiUrl,
    request,
    exchange,
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
  const result = withoutNewerFields(schema, text ? safeJson(text) : undefined);
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

/**
 * The answer parsed by the schema of this version, fields it does not know left out: a newer
 * server adds fields to its answers (the spec's schemas are strict, so that the server's tests
 * hold it to them) and an older CLI goes on without them. Anything else wrong is still wrong.
 */
function withoutNewerFields<Schema extends z.ZodType>(schema: Schema, answer: unknown) {
  let result = schema.safeParse(answer);
  // Each round removes the unknown fields of one level of nesting.
  for (let round = 0; round < 8 && !result.success; round++) {
    const unknown = result.error.issues.filter((issue) => issue.code === 'unrecognized_keys');
    if (unknown.length === 0 || unknown.length !== result.error.issues.length) break;
    for (const issue of unknown) {
      let at: unknown = answer;
      for (const step of issue.path) at = (at as Record<PropertyKey, unknown>)[step];
      for (const key of issue.keys) delete (at as Record<string, unknown>)[key];
    }
    result = schema.safeParse(answer);
  }
  return result;
}

async function readError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  const envelope = errorResponseSchema.safeParse(safeJson(text));
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
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

/**
 * `Retry-After` in seconds: delay-seconds or an HTTP date; undefined when absent or unreadable
 * (then the backoff decides). An absent header is not "retry at once".
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP date starts with the day's name ("Wed, 21 Oct 2015 07:28:00 GMT").
  const date = /^[A-Za-z]{3}/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function neverConnected(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code !== undefined && NOT_CONNECTED.has(code);
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  if ((error as Error).name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  return (error as Error).message ?? String(error);
}
