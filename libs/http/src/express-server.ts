import http from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/**
 * How long an idle kept-alive connection stays open. Every Tolk server sits behind something that
 * pools connections: load balancers in front of the gateway (whose idle timeout is commonly 60 s),
 * the gateway in front of the services (up to UPSTREAM_TIMEOUT_MS, 30 s by default). Longer than
 * theirs, the pool always closes first, so no request is sent on a connection the server is
 * closing, and a gateway whose traffic pauses for a few seconds (node's default is 5 s) does not
 * reopen its connections to the services in a burst when it resumes.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * The http server of an express app, whose requests and responses are created with the app's
 * own prototypes (`app.request`, `app.response`) instead of node's; idle connections are kept
 * `KEEP_ALIVE_TIMEOUT_MS`.
 *
 * Express gives every request and response its prototypes in `app.handle`, with
 * `Object.setPrototypeOf`. An object whose prototype changes after it is built loses V8's fast
 * property access, and every later step of node's own http code on it (headers, streams, socket
 * writes) runs slower. Born with the right prototype, the object needs no change: express's
 * `setPrototypeOf` to the same prototype does nothing. Measured on a 2-core machine with the load
 * generator beside it: an express hello-world went from 3,550 to 8,620 req/s.
 *
 * Node builds them with `new`: node's constructors are plain functions, called here on the new
 * object. (`Reflect.construct` with another `new.target` would work with classes too, but costs
 * more than it saves: 2,470 req/s.) Should node make them classes, the server falls back to node's.
 */
export function createExpressServer(app: Express): http.Server {
  const server = serverWithPrototypes(app);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Must be longer than the keep-alive timeout, or node may close a connection a request is using.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  return server;
}

/** `createExpressServer`, listening on `port` of `host`; rejects when it cannot (the port taken, ...). */
export function listenExpressApp(app: Express, port: number, host: string): Promise<http.Server> {
  const server = createExpressServer(app);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

function serverWithPrototypes(app: Express): http.Server {
  if (isClass(http.IncomingMessage) || isClass(http.ServerResponse)) return http.createServer(app);
  function ExpressRequest(this: http.IncomingMessage, socket: Socket): void {
    http.IncomingMessage.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: http.ServerResponse, req: http.IncomingMessage, options: unknown): void {
    (http.ServerResponse as unknown as (req: unknown, options: unknown) => void).call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return http.createServer(
    {
      IncomingMessage: ExpressRequest as unknown as typeof http.IncomingMessage,
      ServerResponse: ExpressResponse as unknown as typeof http.ServerResponse,
    },
    app,
  );
}

function isClass(constructor: unknown): boolean {
  return Function.prototype.toString.call(constructor).startsWith('class');
}
