import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';
import express, { type Express, type RequestHandler, type Router } from 'express';
import getRawBody from 'raw-body';
import { serviceNameOf, type Logger } from '@tolk/logger';
import { errorMiddleware, notFoundHandler } from './error-middleware.js';
import { accessLogMiddleware, requestIdMiddleware } from './request-id.js';
import { principalMiddleware } from './principal.js';
import { requireInternalCaller } from './internal-caller.js';
import { httpMetricsMiddleware, metricsHandler } from './metrics.js';
import {
  declaresBody,
  decodeJsonText,
  parseJsonTextInSlices,
  requireUtf8JsonContentType,
} from './decode-json-body.js';

export type ReadinessCheck = () => Promise<void>;

/**
 * Reads a JSON body into `req.body` by the one rule (decode-json-body.ts), keeping its UTF-8 text
 * as `req.rawBody` (only the text, for the requests `parseLater` names). A request without a body
 * (or with an empty one) leaves `req.body` undefined.
 */
function readJsonBody(options: {
  limitBytes: BodyLimit;
  onJsonBody?: (req: express.Request, raw: Buffer) => void;
  parseLater?: (req: express.Request) => boolean;
}): RequestHandler {
  return async (req, _res, next) => {
    req.body = undefined;
    if (!declaresBody(req.headers)) return next();
    const limitBytes = typeof options.limitBytes === 'number' ? options.limitBytes : options.limitBytes(req);
    // A body that is not JSON is refused before a byte of it is read.
    const declared = Number(req.headers['content-length'] ?? 1);
    if (declared > 0) requireUtf8JsonContentType(req.headers);
    let bytes: Buffer;
    try {
      // On the wire the body is at most the limit too, compressed or not.
      bytes = await getRawBody(req, { length: req.headers['content-length'], limit: limitBytes });
    } catch (err) {
      // As express' parsers do: the rest of the request is read off before the refusal is sent.
      await readOff(req);
      throw err;
    }
    const text = await decodeJsonText(bytes, req.headers, {
      limitBytes,
      onText: (text) => options.onJsonBody?.(req, text),
    });
    req.rawBody = text;
    if (text !== undefined && !options.parseLater?.(req)) req.body = await parseJsonTextInSlices(text);
    next();
  };
}

function readOff(req: IncomingMessage): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    finished(req, () => resolve());
    req.resume();
  });
}

/** The most bytes a request's body may have: one for every route, or per request (its method and path). */
export type BodyLimit = number | ((req: express.Request) => number);

export type ServiceAppOptions = {
  logger: Logger;
  /** The `service` label of its metrics; by default the logger's `service` (its name). */
  service?: string;
  router: Router;
  internalSecret: string;
  readiness?: ReadinessCheck[];
  bodyLimitBytes?: BodyLimit;
  /**
   * Called with a JSON body's UTF-8 text (decompressed, without a byte order mark) before it is
   * parsed: work on it (e.g. compressing it on the thread pool) can then run while the event loop
   * parses.
   */
  onJsonBody?: (req: express.Request, raw: Buffer) => void;
  /**
   * Requests whose JSON body the route parses itself (parseJsonText of `req.rawBody`) when it is
   * ready to, e.g. in turn with others of its caller: `req.body` stays undefined.
   */
  parseLater?: (req: express.Request) => boolean;
  /**
   * Runs first for every request, before anything else of the app sees it: what it sets reaches
   * every answer, the frame's own too (health, 415, malformed JSON, 404).
   */
  onRequest?: (req: express.Request, res: express.Response) => void;
};

/**
 * The common frame of every service: request id, access log, request metrics and `/metrics`,
 * JSON bodies, the internal principal, health endpoints, 404 and the one error middleware
 * around the service's router.
 * Every `/internal/...` path answers only calls carrying an internal caller token, so no
 * service can expose one unguarded.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const service = options.service ?? serviceNameOf(options.logger);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const onRequest = options.onRequest;
  if (onRequest) {
    app.use((req, res, next) => {
      onRequest(req, res);
      next();
    });
  }
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await Promise.all((options.readiness ?? []).map((check) => check()));
      res.json({ status: 'ready' });
    } catch (err) {
      options.logger.warn({ err }, 'not ready');
      res
        .status(503)
        .json({ error: { code: 'SERVICE_UNAVAILABLE', message: 'A dependency is not reachable' } });
    }
  });
  // Scraped on the service's own port; the gateway routes no /metrics to services (README).
  app.get('/metrics', metricsHandler({ service }));
  app.use(requestIdMiddleware());
  app.use(httpMetricsMiddleware(service));
  app.use(accessLogMiddleware(options.logger));
  app.use(
    readJsonBody({
      limitBytes: options.bodyLimitBytes ?? 1024 * 1024,
      onJsonBody: options.onJsonBody,
      parseLater: options.parseLater,
    }),
  );
  app.use(principalMiddleware(options.internalSecret));
  app.use('/internal', requireInternalCaller(options.internalSecret));
  app.use(options.router);
  app.use(notFoundHandler);
  app.use(errorMiddleware(options.logger));
  return app;
}
