import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { NextFunction, RequestHandler } from 'express';
import { createProxyMiddleware, proxyEventsPlugin } from 'http-proxy-middleware';
import type { ServiceName } from '@tolk/contracts';
import { AppError } from '@tolk/errors';
import type { Logger } from '@tolk/logger';
import { replayConsumedBody } from './consumed-body.js';
import { removeUnforwardedHeaders } from './forwarded-headers.js';
import { requestSlot } from './request-slot.js';

/** Destroys an upstream request that stayed silent too long; recognised to answer 504, not 503. */
class UpstreamTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
    this.name = 'UpstreamTimeoutError';
  }
}

function isServerResponse(value: unknown): value is ServerResponse {
  return typeof (value as ServerResponse | undefined)?.writeHead === 'function';
}

/**
 * Sends requests of one service's routes to it, bodies untouched (read whole beforehand by
 * consumeBody), over a pool of kept-alive connections of its own (`maxSockets`; without one,
 * httpxy shares one pool of 256 among every proxy). Its failures reach the one error middleware:
 * refused or unreachable is 503, silent for `timeoutMs` is 504.
 */
export function createUpstreamProxy(deps: {
  service: ServiceName;
  target: string;
  timeoutMs: number;
  maxSockets: number;
  logger: Logger;
}) {
  const { service, timeoutMs, logger } = deps;
  const Agent = deps.target.startsWith('https:') ? https.Agent : http.Agent;
  // `timeout` covers connecting too, which the per-request timeout below does not. (Nagle's
  // algorithm is off already: node's agents default to `noDelay`.)
  const agent = new Agent({
    keepAlive: true,
    maxSockets: deps.maxSockets,
    timeout: timeoutMs,
  });

  // Per in-flight request: where its error goes (on the request itself, see requestSlot), taken
  // by the first failure reported: http-proxy-middleware emits `error` for a failed proxying,
  // which fail() answers, and then calls next with the same error.
  const nextOf = requestSlot<NextFunction | undefined>('next');
  const takeNext = (req: IncomingMessage) => {
    const next = nextOf.get(req);
    nextOf.set(req, undefined);
    return next;
  };

  function fail(req: IncomingMessage, res: ServerResponse, error: AppError): void {
    const next = takeNext(req);
    // Answered already, or the client has gone: nobody to tell.
    if (!next || res.writableEnded || req.socket.destroyed) return;
    if (res.headersSent) {
      // Too late for an envelope: cut the response so the client sees it is incomplete.
      logger.warn(
        { err: error, upstream: service, requestId: req.headers['x-request-id'] },
        'upstream failed mid-answer',
      );
      res.destroy();
      return;
    }
    next(error);
  }

  const proxy = createProxyMiddleware({
    target: deps.target,
    changeOrigin: true,
    agent,
    // The default logger plugin builds a URL and a log string for every answer, the default error
    // answer is ours to give, and the debug plugin adds listeners to every request and answer for
    // what httpxy and the handlers below do already (every proxy error is handled; a client that
    // leaves ends the upstream request, and with it its answer): keep only the event wiring.
    ejectPlugins: true,
    plugins: [proxyEventsPlugin, replayConsumedBody],
    on: {
      proxyReq: (proxyReq) => {
        // Per request, not the agent's `timeout` alone: node shortens a pooled socket's timeout
        // to the service's Keep-Alive hint (5 s from node's servers) and keeps it on reuse.
        // (httpxy emits proxyReq once the request has its socket: this comes after node's own.)
        proxyReq.setTimeout(timeoutMs, () => proxyReq.destroy(new UpstreamTimeoutError(timeoutMs)));
      },
      proxyRes: (proxyRes, _req, res) => {
        // The service's connection to the gateway is not the client's. httpxy would copy its
        // `connection: keep-alive` (or, without one, write keep-alive itself), and node then keeps
        // a connection the client asked to close. What node decided for the client's goes out
        // instead; the service's Keep-Alive timeout says nothing about the gateway's.
        // (httpxy itself ends the upstream request of a client that leaves, and cuts the client's
        // answer when the service dies mid-body.)
        proxyRes.headers.connection = res.shouldKeepAlive ? 'keep-alive' : 'close';
        delete proxyRes.headers['keep-alive'];
      },
      error: (err, req, res) => {
        if (!isServerResponse(res)) return;
        const error =
          err instanceof UpstreamTimeoutError
            ? new AppError('GATEWAY_TIMEOUT', `The ${service} service did not answer in time`)
            : new AppError('SERVICE_UNAVAILABLE', `The ${service} service is unavailable`);
        // The cause (ECONNREFUSED, ...) goes to the log line, not to the client.
        error.cause = err;
        fail(req, res, error);
      },
    },
  });

  const handler: RequestHandler = (req, res, next) => {
    removeUnforwardedHeaders(req);
    nextOf.set(req, next);
    return proxy(req, res, (err) => takeNext(req)?.(err));
  };

  return {
    handler,
    close(): void {
      agent.destroy();
    },
  };
}

export type UpstreamProxy = ReturnType<typeof createUpstreamProxy>;
