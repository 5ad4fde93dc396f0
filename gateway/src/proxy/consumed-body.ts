import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import type { Plugin } from 'http-proxy-middleware';
import { PayloadTooLargeError } from '@tolk/http';
import { closeAfterRefusal, readBodyUpTo } from './body-limit.js';

const consumedBodies = new WeakMap<IncomingMessage, Buffer>();

/**
 * Reads a small body into memory for a gateway check that needs it (the login's email). Only for
 * routes whose bodies are tiny by nature; every other body streams through unread. The exact
 * bytes are kept and forwarded unchanged.
 */
export function consumeSmallBody(maxBytes: number): RequestHandler {
  return async (req, res, next) => {
    try {
      consumedBodies.set(req, await readBodyUpTo(req, maxBytes));
    } catch (err) {
      if (err instanceof PayloadTooLargeError) closeAfterRefusal(res);
      throw err;
    }
    next();
  };
}

/** The bytes `consumeSmallBody` read, if it ran for this request. */
export function consumedBody(req: IncomingMessage): Buffer | undefined {
  return consumedBodies.get(req);
}

/**
 * Hands http-proxy a consumed body through its `buffer` option (a stream it pipes instead of the
 * request). Writing the bytes from the `proxyReq` hook instead, as `fixRequestBody` does, loses
 * them whenever the agent's pool is full: the request is then queued, the already-ended client
 * stream ends the upstream request first, and the late write fails with "write after end".
 */
export const replayConsumedBody: Plugin<Request, Response> = (proxyServer) => {
  const web = proxyServer.web.bind(proxyServer);
  proxyServer.web = (req, res, options, callback) => {
    const body = consumedBodies.get(req);
    const withBody = body ? { ...options, buffer: Readable.from([body]) } : options;
    // http-proxy reads its optional arguments by position: never pass an undefined callback.
    if (callback) web(req, res, withBody, callback);
    else web(req, res, withBody);
  };
};
