/**
 * The error vocabulary. Errors carry a code and a message, never an HTTP status: the single
 * error middleware maps codes to statuses.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** What a route that needs a body says when it got none (decodeJsonBody reads no bytes as no body). */
export const JSON_BODY_REQUIRED = 'body: a JSON body is required';

export class ValidationError extends AppError {
  constructor(message: string) {
    super('VALIDATION_ERROR', message);
  }
}
export class InvalidJsonError extends AppError {
  constructor(message = 'Request body is not valid JSON') {
    super('INVALID_JSON', message);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required') {
    super('UNAUTHORIZED', message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'Not allowed') {
    super('FORBIDDEN', message);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super('NOT_FOUND', message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}
export class PreconditionFailedError extends AppError {
  constructor(message: string) {
    super('PRECONDITION_FAILED', message);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super('PAYLOAD_TOO_LARGE', message);
  }
}
export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number, reason = 'Too many requests') {
    super('RATE_LIMITED', `${reason}; retry after ${retryAfterSeconds} s`, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}

/** HTTP status of every error code the system answers with. */
export const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  INVALID_JSON: 400,
  VALIDATION_ERROR: 400,
  AUTHORIZATION_PENDING: 400,
  SLOW_DOWN: 400,
  EXPIRED_TOKEN: 400,
  ACCESS_DENIED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  EXPECTATION_FAILED: 417,
  RATE_LIMITED: 429,
  REQUEST_HEADER_FIELDS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
};

export function errorBody(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}
