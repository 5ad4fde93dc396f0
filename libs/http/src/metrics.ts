import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { collectProcessMetrics, defineCounter, defineHistogram, renderMetrics } from '@tolk/logger';
import { UnauthorizedError } from '@tolk/errors';

/** The `route` label of a request no route took: unknown paths, and requests refused before routing. */
export const UNMATCHED_ROUTE = 'unmatched';

const LABELS = ['service', 'method', 'route', 'status'] as const;

const requestsTotal = defineCounter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by route pattern (never the raw path) and status',
  labelNames: LABELS,
});

const requestDuration = defineHistogram({
  name: 'http_request_duration_seconds',
  help: 'Time from a request arriving to its answer being sent, by route pattern and status',
  labelNames: LABELS,
  // From a cached gateway hop (sub-millisecond) to the gateway's upstream timeout (30 s).
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
});

const routePatternSlot = Symbol('tolk.routePattern');
type WithRoutePattern = IncomingMessage & { [routePatternSlot]?: string };

/** For a route matched by an expression (the gateway's table): the pattern that took the request. */
export function setRoutePattern(req: IncomingMessage, pattern: string): void {
  (req as WithRoutePattern)[routePatternSlot] = pattern;
}

/**
 * The pattern of the route that answered (`/v1/projects/:projectId/source`), never the path as
 * sent: ids in a label would make a series per project and put ids where anyone scraping reads.
 */
export function routePatternOf(req: Request): string {
  const explicit = (req as WithRoutePattern)[routePatternSlot];
  if (explicit !== undefined) return explicit;
  const path: unknown = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : UNMATCHED_ROUTE;
}

/**
 * Counts every answered request and its latency by method, route pattern and status. Requests
 * whose client went away before the answer are not counted (they have no status).
 */
export function httpMetricsMiddleware(service: string): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const labels = { service, method: req.method, route: routePatternOf(req), status: res.statusCode };
      requestsTotal.inc(labels);
      requestDuration.observe(labels, seconds);
    });
    next();
  };
}

function sameSecret(given: string, expected: string): boolean {
  // Hashed first, so the comparison takes the same time whatever the lengths.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * `GET /metrics`: every metric of the process in the Prometheus text format; also starts Node's
 * process metrics, labelled with `service`. With `bearerToken`, only a scrape that sends
 * `Authorization: Bearer <bearerToken>` is answered (401 otherwise).
 */
export function metricsHandler(options: { service: string; bearerToken?: string }): RequestHandler {
  collectProcessMetrics(options.service);
  const { bearerToken } = options;
  return async (req, res) => {
    if (bearerToken !== undefined) {
      const given = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
      if (given === undefined || !sameSecret(given, bearerToken)) {
        throw new UnauthorizedError('/metrics needs Authorization: Bearer <METRICS_TOKEN>');
      }
    }
    const { contentType, text } = await renderMetrics();
    res.setHeader('Content-Type', contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(text);
  };
}
