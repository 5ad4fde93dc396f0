import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { runWithRequestId, type Logger } from '@tolk/logger';
import { REQUEST_ID_HEADER } from '@tolk/contracts';

const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes a well-formed incoming request id or makes one, echoes it, and scopes logs to it. */
export function requestIdMiddleware(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const requestId =
      typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader('X-Request-Id', requestId);
    runWithRequestId(requestId, next);
  };
}

/** One log line per finished request. */
export function accessLogMiddleware(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
}
