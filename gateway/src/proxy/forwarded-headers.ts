import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { IDENTITY_HEADERS } from '@tolk/contracts';

/**
 * Headers that describe the client's connection to the gateway, not the gateway's to a service.
 * `connection: close` would otherwise tear down pooled upstream sockets, and `expect` is answered
 * by the gateway's own server.
 */
const HOP_BY_HOP_HEADERS = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
  'expect',
];

/** On every request, public routes included: a client can never speak for someone. */
export const stripClientIdentityHeaders: RequestHandler = (req, _res, next) => {
  for (const name of IDENTITY_HEADERS) delete req.headers[name];
  next();
};

/** Services trust only the internal principal token, so the client's credentials stay here. */
export function removeUnforwardedHeaders(req: IncomingMessage): void {
  delete req.headers.authorization;
  for (const name of HOP_BY_HOP_HEADERS) delete req.headers[name];
}
