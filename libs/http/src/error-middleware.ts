import type { ErrorRequestHandler, RequestHandler } from 'express';
import { currentRequestId, type Logger } from '@tolk/logger';
import { REQUEST_ID_HEADER, redactProjectTokens } from '@tolk/contracts';
import { AppError } from '@tolk/errors';
import { STATUS_BY_CODE, errorBody } from './error-body.js';

type BodyParserError = Error & { type?: string; status?: number; limit?: number };

/**
 * Where the parser gave up, from its message, without the excerpt of the body it quotes: a body
 * may carry a secret (an API key sent unquoted), and none of it may come back or reach a log.
 */
function whereJsonBroke(message: string): string {
  const position = /at position (\d+)/.exec(message);
  if (position) return ` (at character ${position[1]})`;
  if (/Unexpected end of JSON input/.test(message)) return ' (it ends too early)';
  return '';
}

/** Translates errors thrown by express' own body parser into the error vocabulary. */
function fromBodyParser(err: BodyParserError): AppError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return new AppError('INVALID_JSON', `Request body is not valid JSON${whereJsonBroke(err.message)}`);
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${err.limit} bytes`);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', err.message);
    case 'request.aborted':
      return new AppError('VALIDATION_ERROR', 'Request body was aborted by the client');
    case 'request.size.invalid':
      return new AppError('VALIDATION_ERROR', 'Request body length does not match Content-Length');
    default:
      return undefined;
  }
}

/** The router's own refusal to decode a path parameter such as `%E0%A4%A`. */
function fromPathDecoding(err: Error & { status?: number }): AppError | undefined {
  return err instanceof URIError && err.status === 400
    ? new AppError('VALIDATION_ERROR', 'Request path holds a malformed percent-encoding')
    : undefined;
}

/**
 * Postgres cannot store the NUL character in text. Inputs are validated per field, but any NUL
 * that slips through would otherwise surface as a 500; this keeps it a client error everywhere.
 */
function fromDatabase(err: Error & { code?: string }): AppError | undefined {
  return err.code === '22021' || err.code === '22P05'
    ? new AppError('VALIDATION_ERROR', 'Text must not contain the NUL character (\\u0000)')
    : undefined;
}

/** How long a client should wait after a database outage: a Postgres restart takes about 3 s. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * SQLSTATEs of a database that cannot serve now but will: class 08 (connection exception),
 * 57P01-57P03 (admin or crash shutdown, not accepting connections yet: a restart) and 53300
 * (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** A connection to the database that could not be made or was lost (node's socket errors). */
const UNAVAILABLE_SOCKET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** node-postgres' own words for a connection it lost or could not get in time. */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/**
 * A database that is restarting or unreachable is a temporary outage, not a bug: 503 with
 * `Retry-After`, which the CLI waits out and retries, instead of a 500.
 */
function fromDatabaseOutage(err: Error & { code?: unknown }): AppError | undefined {
  const code = typeof err.code === 'string' ? err.code : '';
  const unavailable =
    UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET.has(code) || UNAVAILABLE_MESSAGE.test(err.message);
  return unavailable
    ? new AppError(
        'SERVICE_UNAVAILABLE',
        `The service's database is unavailable; retry after ${DATABASE_RETRY_AFTER_SECONDS} s`,
        { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
      )
    : undefined;
}

/**
 * The one error middleware: maps every error to its status and the spec's envelope
 * `{"error":{"code","message"}}`, nothing else in the body, and an error's `retryAfterSeconds`
 * to `Retry-After`. Only 5xx are logged at error level.
 */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const known =
      err instanceof AppError
        ? err
        : err instanceof Error
          ? (fromBodyParser(err as BodyParserError) ??
            fromPathDecoding(err) ??
            fromDatabase(err) ??
            fromDatabaseOutage(err))
          : undefined;
    const appError =
      known ?? new AppError('INTERNAL_ERROR', 'Internal error; quote the request id when reporting it');
    const status = STATUS_BY_CODE[appError.code] ?? 500;
    // Where no async context carries the request id (the gateway), the line names it itself.
    const context = {
      method: req.method,
      path: redactProjectTokens(req.path),
      ...(currentRequestId() ? {} : { requestId: req.headers[REQUEST_ID_HEADER] }),
    };
    if (status >= 500) {
      logger.error({ err, ...context }, 'request failed');
    } else {
      logger.debug({ code: appError.code, ...context }, appError.message);
    }
    if (appError.retryAfterSeconds !== undefined) {
      res.setHeader('Retry-After', String(appError.retryAfterSeconds));
    }
    res.status(status).json(errorBody(appError.code, appError.message));
  };
}

/** Terminal handler for routes nobody serves. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError('NOT_FOUND', `No route for ${req.method} ${redactProjectTokens(req.path)}`));
};
