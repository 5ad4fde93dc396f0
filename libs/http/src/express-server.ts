import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import { errorBody } from './error-body.js';

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
 * `setPrototypeOf` to the same prototype does nothing. What it buys, in bench:gateway's
 * authenticated `GET /v1/user/me` at 50 connections (2 cores, load generator beside it): with it
 * 6,920 req/s straight to identity-service and 3,415 through the gateway; without it 4,001-4,296
 * and 1,891-2,188 (0.58-0.64×), and the gateway's p99 at a fixed 1,000 req/s 28-57 ms instead of
 * 9.5. Servers with and without it run side by side in alternating rounds: 0.50-0.62×.
 * (An express hello-world: 3,550 req/s without, 8,620 with.)
 *
 * It relies on express 5 making `app.request` / `app.response` from node's prototypes and giving
 * every request exactly those in `app.handle`, and on node's constructors being plain functions:
 * test/express-server.test.ts pins each, so an upgrade that changes one fails there.
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
  answerParserRefusalsInTheEnvelope(server);
  return server;
}

/** An answer of the server itself, outside express: what node's parser or its checks refuse. */
type Refusal = { status: number; code: string; message: string };

/**
 * What node's HTTP parser refuses reaches no app: node answers it itself, with the status and an
 * empty body. The parser's error code says what was wrong (llhttp's `reason` is a fixed text, it
 * quotes nothing of the request); the statuses are node's own choices.
 */
function refusalOf(err: Error & { code?: string; reason?: string }): Refusal | undefined {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
        message: `The request line and headers exceed ${http.maxHeaderSize} bytes (a URL or a header too long)`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The chunk extensions of the request body are too long',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return {
        status: 400,
        code: 'VALIDATION_ERROR',
        message: `The request's length is ambiguous: ${err.reason ?? 'invalid Content-Length'}`,
      };
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_STRICT':
      return {
        status: 400,
        code: 'VALIDATION_ERROR',
        message: `The chunked request body is malformed: ${err.reason ?? 'invalid chunk'}`,
      };
    default:
      // Every other parser error; socket errors (ECONNRESET, EPIPE, ...) have nobody to answer.
      return err.code?.startsWith('HPE_')
        ? {
            status: 400,
            code: 'VALIDATION_ERROR',
            message: `Malformed HTTP request: ${err.reason ?? err.message}`,
          }
        : undefined;
  }
}

function refusalText(refusal: Refusal): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(errorBody(refusal.code, refusal.message));
  return {
    body,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      // What follows on this connection cannot be trusted to start where the parser thinks.
      Connection: 'close',
    },
  };
}

/** Through the response node made for a request it refuses before any app sees it. */
function refuse(res: http.ServerResponse, refusal: Refusal): void {
  const { body, headers } = refusalText(refusal);
  res.writeHead(refusal.status, headers).end(body);
}

/**
 * Every Tolk server answers in the envelope `{"error":{"code","message"}}`, also where node's own
 * HTTP code answers: parser errors ('clientError': 431 for an overlong URL or headers, 400 for bad
 * chunking, Transfer-Encoding with Content-Length, two Content-Lengths, ...), a missing Host
 * (checked here instead of by node), an unknown `Expect` (417). The connection is closed after.
 */
function answerParserRefusalsInTheEnvelope(server: http.Server): void {
  server.on('clientError', (err: Error, socket: Duplex) => {
    const refusal = refusalOf(err);
    const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
    // Never into an answer already begun: the client would read our bytes as part of it.
    if (!refusal || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { body, headers } = refusalText(refusal);
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.end(
      `HTTP/1.1 ${refusal.status} ${http.STATUS_CODES[refusal.status]}\r\n${head.join('')}\r\n${body}`,
    );
    // The parser has stopped: nothing more will be read, so the socket goes once the answer is out.
    socket.once('finish', () => socket.destroy());
  });
  server.on('checkExpectation', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    refuse(res, {
      status: 417,
      code: 'EXPECTATION_FAILED',
      message: 'The only expectation supported is "Expect: 100-continue"',
    });
  });
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

/**
 * HTTP/1.1 requires Host (RFC 9112 §3.2); node checks it itself unless told not to, and answers
 * with an empty body. Checked here, the refusal is in the envelope.
 */
function requiringHost(app: Express): http.RequestListener {
  return (req, res) => {
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
      refuse(res, {
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'An HTTP/1.1 request needs a Host header',
      });
      return;
    }
    app(req, res);
  };
}

function serverWithPrototypes(app: Express): http.Server {
  const listener = requiringHost(app);
  if (isClass(http.IncomingMessage) || isClass(http.ServerResponse)) {
    return http.createServer({ requireHostHeader: false }, listener);
  }
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
      requireHostHeader: false,
    },
    listener,
  );
}

function isClass(constructor: unknown): boolean {
  return Function.prototype.toString.call(constructor).startsWith('class');
}
