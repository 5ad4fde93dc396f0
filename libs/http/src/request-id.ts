import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { currentRequestId, runWithRequestId, type Logger } from '@tolk/logger';
import { REQUEST_ID_HEADER, redactProjectTokens } from '@tolk/contracts';

const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Takes a well-formed incoming request id or makes one and echoes it. With `scopeLogs` (services)
 * every log line and event inside the request carries it through AsyncLocalStorage; the gateway
 * turns that off, since its only request-scoped log lines are the error middleware's, which name
 * the id themselves, and async context tracking costs every proxied request.
 */
export function requestIdMiddleware(options: { scopeLogs?: boolean } = {}): RequestHandler {
  const scopeLogs = options.scopeLogs ?? true;
  return (req, res, next) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const requestId =
      typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader('X-Request-Id', requestId);
    if (scopeLogs) runWithRequestId(requestId, next);
    else next();
  };
}

/** The request's id as requestIdMiddleware settled it, for calls made on its behalf. */
export function requestIdOf(req: IncomingMessage): string | undefined {
  const requestId = req.headers[REQUEST_ID_HEADER];
  return typeof requestId === 'string' ? requestId : undefined;
}

/** One log line per finished request. */
export function accessLogMiddleware(logger: Logger): RequestHandler {
  // Below info level the line would be dropped anyway: spare every request the bookkeeping.
  if (!logger.isLevelEnabled('info')) return (_req, _res, next) => next();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          method: req.method,
          // A token pasted into a path is not logged (the query is not logged at all).
          path: redactProjectTokens(req.originalUrl.split('?')[0] ?? ''),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          // Where no async context carries the request id (the gateway), the line names it itself.
          ...(currentRequestId() ? {} : { requestId: req.headers[REQUEST_ID_HEADER] }),
        },
        'request',
      );
    });
    next();
  };
}
