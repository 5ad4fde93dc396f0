import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware, proxyEventsPlugin, type Plugin } from 'http-proxy-middleware';
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
 * consumeBody), over a pool of kept-alive connections (without one, http-proxy opens a connection
 * per request and collapses under load). Its failures reach the one error middleware: refused or
 * unreachable is 503, silent for `timeoutMs` is 504.
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
  // `timeout` covers connecting too, which the per-request timeout below does not.
  const agent = new Agent({
    keepAlive: true,
    noDelay: true,
    maxSockets: deps.maxSockets,
    timeout: timeoutMs,
  });

  // Per in-flight request: where its errors go (on the request itself, see requestSlot).
  const nextOf = requestSlot<NextFunction>('next');

  function fail(req: IncomingMessage, res: ServerResponse, error: AppError): void {
    // Answered already, or the client has gone: nobody to tell.
    if (res.writableEnded || req.socket.destroyed) return;
    if (res.headersSent) {
      // Too late for an envelope: cut the response so the client sees it is incomplete.
      logger.warn(
        { err: error, upstream: service, requestId: req.headers['x-request-id'] },
        'upstream failed mid-answer',
      );
      res.destroy();
      return;
    }
    const next = nextOf.get(req);
    if (next) next(error);
  }

  const proxy = createProxyMiddleware<Request, Response>({
    target: deps.target,
    changeOrigin: true,
    agent,
    // The default logger plugin builds a URL and a log string for every answer, the default error
    // answer is ours to give, and the error-guard plugin adds two listeners to every request for
    // what the handlers below do already (every proxy error is handled; a client that leaves
    // ends the upstream request, and with it its answer): keep only the event wiring.
    ejectPlugins: true,
    plugins: [
      // The library types its own plugins for plain node requests; express' extend them.
      proxyEventsPlugin as unknown as Plugin<Request, Response>,
      replayConsumedBody,
    ],
    on: {
      proxyReq: (proxyReq, _req, res) => {
        // Per request, not the agent's `timeout` alone: node shortens a pooled socket's timeout
        // to the service's Keep-Alive hint (5 s from node's servers) and keeps it on reuse.
        proxyReq.setTimeout(timeoutMs, () => proxyReq.destroy(new UpstreamTimeoutError(timeoutMs)));
        // A client that left needs no answer: free the service from working on it.
        res.once('close', () => {
          if (!res.writableFinished) proxyReq.destroy();
        });
      },
      proxyRes: (proxyRes, _req, res) => {
        // The service's connection to the gateway is not the client's. http-proxy would copy its
        // `connection: keep-alive` (or, without one, write keep-alive itself), and node then keeps
        // a connection the client asked to close. What node decided for the client's goes out
        // instead; the service's Keep-Alive timeout says nothing about the gateway's.
        proxyRes.headers.connection = res.shouldKeepAlive ? 'keep-alive' : 'close';
        delete proxyRes.headers['keep-alive'];
        // A service that dies mid-body must not leave the client waiting for the rest.
        proxyRes.once('close', () => {
          if (!proxyRes.complete) res.destroy();
        });
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
    return proxy(req, res, next);
  };

  return {
    handler,
    close(): void {
      agent.destroy();
    },
  };
}

export type UpstreamProxy = ReturnType<typeof createUpstreamProxy>;
