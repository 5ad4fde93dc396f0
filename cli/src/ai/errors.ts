import { APICallError, LoadAPIKeyError, RetryError } from 'ai';
import type { IcuViolation } from '@tolk/locale-file';

/** What went wrong with one key of a model's answer. */
export type KeyProblem = { key: string; message: string } & (
  | { kind: 'missing' }
  | { kind: 'not-a-string'; got: string }
  | { kind: 'empty' }
  | { kind: 'placeholders'; missing: string[]; unexpected: string[] }
  /** The ICU rules of DESIGN §11 for the target locale: it must parse, plurals keep its categories. */
  | IcuViolation
  /** A form of a plural group that the target locale does not use (`item_two` in Polish). */
  | { kind: 'unused-plural-form' }
  /** A key the model answered that was not asked for: never kept. */
  | { kind: 'unexpected-key' }
  /**
   * The translation lacks the glossary's rendering of a term its source uses (DESIGN §13). Asked
   * again like any problem; after the last attempt `translation` is kept and the key reported.
   */
  | { kind: 'glossary'; translation: string }
  /** The answer as a whole was not a JSON object, so no key of it could be used. */
  | { kind: 'unreadable-answer'; detail: string }
);

/**
 * The model's answer stayed bad for some keys after every attempt. Nothing of those keys may be
 * written or uploaded; `translations` holds the keys that passed the check, which may be.
 */
export class TranslationRejectedError extends Error {
  override readonly name = 'TranslationRejectedError';
  constructor(
    readonly problems: KeyProblem[],
    readonly attempts: number,
    readonly translations: Record<string, string>,
    readonly usage: { inputTokens: number; outputTokens: number },
  ) {
    const keys = [...new Set(problems.filter((p) => p.kind !== 'unexpected-key').map((p) => p.key))];
    super(
      `The model's translation was rejected for ${keys.length} key(s) after ${attempts} attempt(s): ` +
        problems.map((p) => `${JSON.stringify(p.key)}: ${p.message}`).join('; '),
    );
  }
}

export type ProviderErrorCode =
  | 'unauthorized'
  | 'rate_limited'
  | 'unavailable'
  | 'bad_request'
  | 'not_found'
  | 'network'
  | 'invalid_response'
  | 'misconfigured';

/**
 * The provider could not be used: an HTTP failure left after the SDK's own retries (429 and 5xx
 * are retried with backoff first), a network failure, or a configuration the provider cannot work
 * with. `providerCode` is the provider's own error code or type when its body named one.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly code: ProviderErrorCode;
  readonly status: number | undefined;
  readonly providerCode: string | undefined;
  /** HTTP requests made for the failing call, retries included (when known). */
  readonly requests: number | undefined;
  constructor(
    message: string,
    details: {
      code: ProviderErrorCode;
      status?: number;
      providerCode?: string;
      requests?: number;
      cause?: unknown;
    },
  ) {
    super(message, { cause: details.cause });
    this.code = details.code;
    this.status = details.status;
    this.providerCode = details.providerCode;
    this.requests = details.requests;
  }
}

/** The ProviderError for an AI SDK call failure, or undefined when `error` is not one. */
export function toProviderError(error: unknown): ProviderError | undefined {
  let cause = error;
  let requests: number | undefined = 1;
  if (RetryError.isInstance(error)) {
    cause = error.lastError;
    requests = error.errors.length;
  }
  if (LoadAPIKeyError.isInstance(cause)) {
    return new ProviderError(cause.message, { code: 'misconfigured', cause: error });
  }
  if (!APICallError.isInstance(cause)) return undefined;
  const status = cause.statusCode;
  const providerCode = providerCodeOf(cause.data);
  const code = status === undefined ? networkOrInvalid(cause) : codeForStatus(status);
  const tries = requests === 1 ? '' : ` after ${requests} requests`;
  const what = status === undefined ? cause.message : `HTTP ${status}: ${cause.message}`;
  return new ProviderError(`The AI provider failed${tries} (${what})`, {
    code,
    ...(status !== undefined && { status }),
    ...(providerCode !== undefined && { providerCode }),
    requests,
    cause: error,
  });
}

function codeForStatus(status: number): ProviderErrorCode {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 429) return 'rate_limited';
  if (status === 404) return 'not_found';
  if (status >= 500) return 'unavailable';
  if (status >= 400) return 'bad_request';
  return 'invalid_response';
}

/** Without a status the request never got an answer, or got one the SDK could not read. */
function networkOrInvalid(error: APICallError): ProviderErrorCode {
  return error.responseBody === undefined ? 'network' : 'invalid_response';
}

/** `{error:{code|type}}` (OpenAI and compatible ones, Anthropic, Google's `status`). */
function providerCodeOf(data: unknown): string | undefined {
  if (!isObject(data) || !isObject(data.error)) return undefined;
  const { code, type, status } = data.error;
  for (const candidate of [code, type, status]) {
    if (typeof candidate === 'string' && candidate !== '') return candidate;
    if (typeof candidate === 'number') return String(candidate);
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
