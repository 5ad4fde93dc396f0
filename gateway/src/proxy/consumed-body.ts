import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { RequestHandler } from 'express';
import type { Plugin } from 'http-proxy-middleware';
import { AppError } from '@tolk/errors';
import { closeAfterRefusal, hasBody, readBodyUpTo, type BodyTiming } from './body-limit.js';
import { requestSlot } from './request-slot.js';

const consumedBodies = requestSlot<Buffer>('consumedBody');

/**
 * Reads a request's whole body into memory before anything is sent to a service (nginx's
 * `proxy_request_buffering`): a slow client then holds a gateway socket and the bytes it sent,
 * never a pooled connection to a service, which a few hundred trickling uploads would otherwise
 * exhaust for everyone. The body is forwarded byte for byte, with a Content-Length instead of
 * chunks. It is also what gateway checks that need the body (the login's email) read.
 * A request without a body passes at once. Over `maxBytes` is 413, slower than `timing` is 408;
 * either closes the connection after the answer.
 */
export function consumeBody(maxBytes: number, timing: BodyTiming): RequestHandler {
  return async (req, res, next) => {
    if (!hasBody(req)) {
      next();
      return;
    }
    let body: Buffer;
    try {
      body = await readBodyUpTo(req, maxBytes, timing);
    } catch (err) {
      const code = err instanceof AppError ? err.code : undefined;
      if (code === 'PAYLOAD_TOO_LARGE' || code === 'REQUEST_TIMEOUT') closeAfterRefusal(req, res);
      throw err;
    }
    consumedBodies.set(req, body);
    req.headers['content-length'] = String(body.length);
    delete req.headers['transfer-encoding'];
    next();
  };
}

/** The bytes `consumeBody` read, if the request had a body. */
export function consumedBody(req: IncomingMessage): Buffer | undefined {
  return consumedBodies.get(req);
}

/**
 * Hands httpxy a consumed body through its `buffer` option (a stream it pipes instead of the
 * request). Writing the bytes from the `proxyReq` hook instead, as `fixRequestBody` does, loses
 * them whenever the agent's pool is full: the request is then queued, the already-ended client
 * stream ends the upstream request first, and the late write fails with "write after end".
 */
export const replayConsumedBody: Plugin = (proxyServer) => {
  const web = proxyServer.web.bind(proxyServer);
  // httpxy's fourth argument is a WebSocket's head, never a callback: its promise settles instead.
  proxyServer.web = (req, res, options) => {
    const body = consumedBodies.get(req);
    return web(req, res, body ? { ...options, buffer: Readable.from([body]) } : options);
  };
};
