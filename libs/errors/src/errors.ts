/**
 * The error vocabulary. Errors carry a code and a message, never an HTTP status or a header:
 * the single error middleware (@tolk/http) maps codes to statuses and `retryAfterSeconds` to
 * `Retry-After`.
 */
export class AppError extends Error {
  /** When the caller may try again, in seconds (a rate limit, a database that restarts). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: string,
    message: string,
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

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
    super('RATE_LIMITED', `${reason}; retry after ${retryAfterSeconds} s`, { retryAfterSeconds });
  }
}
