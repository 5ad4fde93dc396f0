import { createRequire } from 'node:module';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEEP_ALIVE_TIMEOUT_MS, createExpressServer } from '@tolk/http';

describe('createExpressServer', () => {
  const app = express();
  // As the server hands them over, before express has seen them.
  const born: { requestPrototype: unknown; responsePrototype: unknown; isNodeRequest: boolean }[] = [];
  // As express hands them to a route.
  const handled: { requestPrototype: unknown; responsePrototype: unknown }[] = [];
  app.get('/things/:id', (req, res) => {
    handled.push({
      requestPrototype: Object.getPrototypeOf(req),
      responsePrototype: Object.getPrototypeOf(res),
    });
    res.status(200).json({
      id: req.params['id'],
      q: req.query['q'],
      host: req.get('host') !== undefined,
      sameApp: req.app === app,
      locals: res.locals !== undefined,
    });
  });
  app.post('/echo', express.json(), (req, res) => {
    res.type('application/json').send(JSON.stringify(req.body));
  });
  // A mounted app gets its own prototypes while it handles the request, as with node's server.
  const mounted = express();
  mounted.get('/who', (req, res) => res.json({ mountedApp: req.app === mounted, base: req.baseUrl }));
  app.use('/sub', mounted);
  app.get('/after-sub', (req, res) => res.json({ sameApp: req.app === app }));

  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = createExpressServer(app);
    server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      born.push({
        requestPrototype: Object.getPrototypeOf(req),
        responsePrototype: Object.getPrototypeOf(res),
        isNodeRequest: req instanceof http.IncomingMessage && res instanceof http.ServerResponse,
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("creates requests and responses with the app's own prototypes, so express changes none", async () => {
    born.length = 0;
    const response = await fetch(`${base}/things/42?q=x`);
    expect(await response.json()).toEqual({ id: '42', q: 'x', host: true, sameApp: true, locals: true });
    expect(born).toEqual([
      { requestPrototype: app.request, responsePrototype: app.response, isNodeRequest: true },
    ]);
  });

  // What the server's prototype swap relies on, in express and in node: should an upgrade of
  // either change it, these fail (rather than the swap silently costing its gain, or breaking).
  describe('what giving requests the express prototypes at birth relies on', () => {
    it('is express 5, the major version it was measured with', () => {
      const version = (createRequire(import.meta.url)('express/package.json') as { version: string }).version;
      expect(version).toMatch(/^5\./);
    });

    it("has app.request and app.response made from node's IncomingMessage and ServerResponse prototypes", () => {
      const fresh = express();
      expect(Object.getPrototypeOf(Object.getPrototypeOf(fresh.request))).toBe(
        http.IncomingMessage.prototype,
      );
      expect(Object.getPrototypeOf(Object.getPrototypeOf(fresh.response))).toBe(
        http.ServerResponse.prototype,
      );
      expect(Object.getOwnPropertyDescriptor(fresh.request, 'app')?.value).toBe(fresh);
      expect(Object.getOwnPropertyDescriptor(fresh.response, 'app')?.value).toBe(fresh);
      for (const method of ['get', 'is', 'accepts'] as const)
        expect(typeof fresh.request[method]).toBe('function');
      for (const method of ['json', 'send', 'status', 'set'] as const) {
        expect(typeof fresh.response[method]).toBe('function');
      }
    });

    it("has node's IncomingMessage and ServerResponse as plain functions, which the server calls on its own objects", () => {
      for (const constructor of [http.IncomingMessage, http.ServerResponse]) {
        expect(Function.prototype.toString.call(constructor)).toMatch(/^function /);
      }
    });

    it('has express give a request exactly app.request and app.response, the prototypes it was born with', async () => {
      born.length = 0;
      handled.length = 0;
      await (await fetch(`${base}/things/7`)).arrayBuffer();
      expect(handled).toEqual([{ requestPrototype: app.request, responsePrototype: app.response }]);
      expect(
        born.map(({ requestPrototype, responsePrototype }) => ({ requestPrototype, responsePrototype })),
      ).toEqual(handled);
    });
  });

  it('reads request bodies and answers on the same kept-alive connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    for (const n of [1, 2, 3]) {
      const body = await new Promise<string>((resolve, reject) => {
        const req = http.request(
          `${base}/echo`,
          { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
          (res) => {
            sockets.add(res.socket);
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve(text));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ n, text: 'grüße' }));
      });
      expect(JSON.parse(body)).toEqual({ n, text: 'grüße' });
    }
    expect(sockets.size).toBe(1);
    agent.destroy();
  });

  it('lets a mounted app handle with its prototypes and gives the request back afterwards', async () => {
    expect(await (await fetch(`${base}/sub/who`)).json()).toEqual({ mountedApp: true, base: '/sub' });
    expect(await (await fetch(`${base}/after-sub`)).json()).toEqual({ sameApp: true });
  });

  it('keeps idle connections longer than the pools in front of it keep theirs', async () => {
    const response = await fetch(`${base}/things/1`);
    await response.arrayBuffer();
    expect(response.headers.get('keep-alive')).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(server.headersTimeout).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
  });

  it("answers express's own 404 for unknown routes", async () => {
    const response = await fetch(`${base}/nowhere`);
    expect(response.status).toBe(404);
  });
});
