import { spawn, type ChildProcess } from 'node:child_process';
import { createSecretKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import jwt from 'jsonwebtoken';
import { expect, vi } from 'vitest';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '@tolk/contracts';
import { listenExpressApp } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { isReachable, listen } from '@tolk/testing';
import { createGatewayApp } from '../src/app.js';
import { loadGatewayConfig } from '../src/config.js';

export const INTERNAL_SECRET = 'gateway-test-internal-secret-0123456789';

/** The identity-service key pair of the tests: the gateway gets the public half. */
export function createKeyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}
export const identityKeys = createKeyPair();

export async function signAccessToken(
  options: {
    sub?: string;
    issuer?: string;
    audience?: string;
    /** Seconds from now; negative for a token that has expired. */
    expiresIn?: number;
    key?: KeyObject;
  } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return jwt.sign(
    { iat: now, exp: now + (options.expiresIn ?? 900) },
    options.key ?? identityKeys.privateKey,
    {
      algorithm: 'ES256',
      subject: options.sub ?? 'user-1',
      issuer: options.issuer ?? ACCESS_TOKEN_ISSUER,
      audience: options.audience ?? ACCESS_TOKEN_AUDIENCE,
    },
  );
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function validClaims(sub: string) {
  const now = Math.floor(Date.now() / 1000);
  return { sub, iss: ACCESS_TOKEN_ISSUER, aud: ACCESS_TOKEN_AUDIENCE, iat: now, exp: now + 900 };
}

/** An unsigned token (`alg: none`) with otherwise valid claims. */
export function unsignedToken(sub = 'user-1'): string {
  return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(validClaims(sub))}.`;
}

/** The classic key-confusion forgery: HS256 with the public key's PEM as the HMAC secret. */
export async function hs256WithPublicKey(sub = 'user-1'): Promise<string> {
  return jwt.sign(validClaims(sub), createSecretKey(Buffer.from(identityKeys.publicKeyPem)), {
    algorithm: 'HS256',
  });
}

export type Received = {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
};

const MEMBERSHIP_PATH = /^\/internal\/projects\/([^/]+)\/members\/([^/?]+)$/;

/**
 * A stand-in service that records every complete request it receives (a request cut short never
 * completes, so it is not recorded) and answers with `respond`, by default 200 `{"ok":true}`.
 * As a project-service it also answers the gateway's membership lookups, recorded apart in
 * `lookups`: `roleOf` says the role (by default everyone is an owner) or null for a non-member.
 */
export async function startUpstream(
  respond: (received: Received, res: http.ServerResponse) => void = (_received, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  },
  options: { roleOf?: (projectId: string, userId: string) => string | null } = {},
) {
  const roleOf = options.roleOf ?? (() => 'owner');
  const received: Received[] = [];
  const lookups: Received[] = [];
  const server = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      if (req.url === '/healthz') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
        return;
      }
      const membership = MEMBERSHIP_PATH.exec(req.url!);
      if (membership) {
        lookups.push(request);
        const projectId = decodeURIComponent(membership[1]!);
        const userId = decodeURIComponent(membership[2]!);
        const role = roleOf(projectId, userId);
        res
          .writeHead(role ? 200 : 404, { 'content-type': 'application/json' })
          .end(
            JSON.stringify(
              role
                ? { projectId, userId, role }
                : { error: { code: 'NOT_FOUND', message: 'Project not found' } },
            ),
          );
        return;
      }
      received.push(request);
      respond(request, res);
    });
  });
  return { ...server, received, lookups };
}

/**
 * Where nothing listens, for "connection refused". Not a just-released ephemeral port: a test
 * running in parallel may be given that port a moment later.
 */
export const REFUSING_URL = 'http://127.0.0.1:1';

/** A port free right now, for a server this test starts itself. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Redis of this test's own: the shared one must keep running for everyone else's tests. */
export async function startOwnRedis(): Promise<{
  url: string;
  kill: () => Promise<void>;
  signal: (signal: 'SIGSTOP' | 'SIGCONT') => void;
}> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  // vi.waitFor, not expect.poll: this runs in hooks too.
  await vi.waitFor(async () => expect(await isReachable(url, 200), 'redis-server started').toBe(true), {
    timeout: 5000,
    interval: 50,
  });
  return {
    url,
    signal: (signal) => child.kill(signal),
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A gateway built from an environment, as at start, on its own Redis key prefix; port 0. */
export async function startGateway(
  env: Record<string, string | undefined>,
  deps: Pick<Parameters<typeof createGatewayApp>[0], 'resolveProjectToken'> = {},
) {
  const config = loadGatewayConfig({
    JWT_PUBLIC_KEY: identityKeys.publicKeyPem,
    INTERNAL_JWT_SECRET: INTERNAL_SECRET,
    RATE_LIMIT_KEY_PREFIX: `tolk-test:${randomUUID()}`,
    MEMBERSHIP_CACHE_KEY_PREFIX: `tolk-test:${randomUUID()}:membership`,
    ...env,
  });
  const gateway = createGatewayApp({
    ...deps,
    config,
    logger: createLogger({ name: 'gateway', level: 'silent' }),
  });
  // Served as start.ts serves it: what node answers before the app is the server's (express-server.ts).
  const server = await listenExpressApp(gateway.app, 0, '127.0.0.1');
  const metricsServer = await listenExpressApp(gateway.metricsApp, 0, '127.0.0.1');
  const urlOf = (served: http.Server) => `http://127.0.0.1:${(served.address() as net.AddressInfo).port}`;
  return {
    url: urlOf(server),
    port: (server.address() as net.AddressInfo).port,
    /** Where METRICS_PORT would be. */
    metricsUrl: urlOf(metricsServer),
    config,
    startConsumers: gateway.startConsumers,
    close: async () => {
      for (const served of [server, metricsServer]) {
        served.closeAllConnections();
        await new Promise((resolve) => served.close(resolve));
      }
      await gateway.close();
    },
  };
}

/** Resolves once the gateway reports its Redis connection up (it connects in the background). */
export async function redisConnected(gatewayUrl: string): Promise<void> {
  // vi.waitFor, not expect.poll: this runs in hooks too.
  await vi.waitFor(
    async () => {
      const body = (await (await fetch(`${gatewayUrl}/readyz`)).json()) as { redis?: string };
      expect(body.redis, 'the gateway connected to Redis').toBe('up');
    },
    { timeout: 5000, interval: 20 },
  );
}

/**
 * A request written by hand: chunked bodies, exact bytes, headers fetch will not send. Resolves
 * with the answer even when the gateway answers before the body is fully sent.
 */
export function rawRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    /** Written one by one; without Content-Length the body goes chunked. */
    chunks?: Buffer[];
  },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; body: any }> {
  return new Promise((resolve, reject) => {
    // Not through `new URL()`, which would normalise the path the test means to send.
    const [, host, port, path] = /^http:\/\/([^:/]+):(\d+)(\/.*)$/.exec(url)!;
    const req = http.request({
      host,
      port: Number(port),
      path,
      method: options.method ?? 'POST',
      headers: options.headers,
      agent: false,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, body });
      });
      res.on('error', reject);
    });
    // An early answer may close the connection while the body is still being written.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
    });
    void (async () => {
      for (const chunk of options.chunks ?? []) {
        if (req.destroyed) return;
        await new Promise<void>((done) => req.write(chunk, () => done()));
      }
      req.end();
    })();
  });
}

export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: any };

/**
 * An upload whose body the test writes piece by piece (`write`, `end`), as a slow client would:
 * chunked unless `headers` declare a Content-Length. `answer` resolves with the gateway's answer
 * whenever it comes, even before the body is complete; `closed` once the connection is closed.
 */
export function openUpload(url: string, headers: Record<string, string>, method = 'PUT') {
  const [, host, port, path] = /^http:\/\/([^:/]+):(\d+)(\/.*)$/.exec(url)!;
  const req = http.request({ host, port: Number(port), path, method, headers, agent: false });
  req.flushHeaders();
  // A write to a connection the gateway closed fails; the answer (or its absence) is what counts.
  req.on('error', () => {});
  const closed = new Promise<void>((resolve) => req.once('close', () => resolve()));
  const answer = new Promise<Answer>((resolve, reject) => {
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode!, headers: res.headers, body });
      });
      res.once('error', reject);
    });
    req.once('close', () => reject(new Error('the connection closed without an answer')));
  });
  // Settled by the test or never: an unhandled rejection must not fail an unrelated test.
  answer.catch(() => {});
  return {
    answer,
    closed,
    write: (chunk: string | Buffer) =>
      new Promise<void>((resolve) => {
        if (req.destroyed) resolve();
        else req.write(chunk, () => resolve());
      }),
    end: () => new Promise<void>((resolve) => req.end(resolve)),
    destroy: () => req.destroy(),
  };
}
