import type { IncomingMessage } from 'node:http';
import express, { type Express, type RequestHandler, type Router } from 'express';
import { serviceNameOf, type Logger } from '@tolk/logger';
import { AppError } from './errors.js';
import { errorMiddleware, notFoundHandler } from './error-middleware.js';
import { accessLogMiddleware, requestIdMiddleware } from './request-id.js';
import { principalMiddleware } from './principal.js';
import { requireInternalCaller } from './internal-caller.js';
import { httpMetricsMiddleware, metricsHandler } from './metrics.js';
import { hasUtf8Charset, parseRawUtf8JsonBody } from './json-body.js';

export type ReadinessCheck = () => Promise<void>;

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;

/** Bodies must be JSON; a request that sends any other body type gets 415. */
const requireJsonBody: RequestHandler = (req, _res, next) => {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (hasBody && !JSON_TYPE.test(req.headers['content-type'] ?? '')) {
    next(
      new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be sent as Content-Type: application/json'),
    );
    return;
  }
  next();
};

/**
 * The common frame of every service: request id, access log, request metrics and `/metrics`,
 * JSON bodies, the internal principal, health endpoints, 404 and the one error middleware
 * around the service's router.
 * Every `/internal/...` path answers only calls carrying an internal caller token, so no
 * service can expose one unguarded.
 */
export function createServiceApp(options: {
  logger: Logger;
  /** The `service` label of its metrics; by default the logger's `service` (its name). */
  service?: string;
  router: Router;
  internalSecret: string;
  readiness?: ReadinessCheck[];
  bodyLimitBytes?: number;
  /**
   * Called with a JSON body's bytes as they arrived, before they are parsed: work on them (e.g.
   * compressing them on the thread pool) can then run while the event loop parses.
   */
  onJsonBody?: (req: express.Request, raw: Buffer) => void;
  /**
   * Runs first for every request, before anything else of the app sees it: what it sets reaches
   * every answer, the frame's own too (health, 415, malformed JSON, 404).
   */
  onRequest?: (req: express.Request, res: express.Response) => void;
}): Express {
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
  app.use(requireJsonBody);
  const limit = options.bodyLimitBytes ?? 1024 * 1024;
  const isJson = (req: IncomingMessage) => JSON_TYPE.test(req.headers['content-type'] ?? '');
  // The bytes are already in memory: keeping a reference lets a service store the document as it
  // came instead of serialising the parsed form again.
  const verify = (req: IncomingMessage, _res: unknown, buf: Buffer) => {
    (req as express.Request).rawBody = buf;
    options.onJsonBody?.(req as express.Request, buf);
  };
  // UTF-8 (nearly every body) is parsed from its bytes (json-body.ts); other charsets express.json
  // decodes. Both read the body alike: limits, Content-Length, compression, errors.
  app.use(express.raw({ limit, type: (req) => isJson(req) && hasUtf8Charset(req), verify }));
  app.use(parseRawUtf8JsonBody);
  app.use(express.json({ limit, strict: false, type: (req) => isJson(req) && !hasUtf8Charset(req), verify }));
  app.use(principalMiddleware(options.internalSecret));
  app.use('/internal', requireInternalCaller(options.internalSecret));
  app.use(options.router);
  app.use(notFoundHandler);
  app.use(errorMiddleware(options.logger));
  return app;
}
