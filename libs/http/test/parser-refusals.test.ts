import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExpressServer, errorMiddleware } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { malformedRequests, sendRawHttp } from '@tolk/testing';

describe('what node refuses before express, on a createExpressServer server', () => {
  const app = express();
  app.post('/echo', express.json(), (req, res) => {
    res.json(req.body);
  });
  app.get('/echo', (_req, res) => {
    res.json({ ok: true });
  });
  app.use(errorMiddleware(createLogger({ name: 'test', level: 'silent' })));

  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = createExpressServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each(malformedRequests('/echo'))(
    'when a request has $name, then $status in the envelope and the connection closed',
    async ({ bytes, status, code, message }) => {
      const answer = await sendRawHttp(base, bytes);

      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['connection']).toBe('close');
      expect(JSON.parse(answer.body)).toEqual({ error: { code, message: expect.stringMatching(message) } });
      expect(answer.closed).toBe(true);
    },
  );

  it('when a well-formed request follows on the same server, then it is answered as usual', async () => {
    const answer = await sendRawHttp(
      base,
      'POST /echo HTTP/1.1\r\nHost: tolk\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}',
      200,
    );
    expect(answer).toMatchObject({ status: 200, body: '{"a":1}', closed: false });
    // HTTP/1.0 has no Host requirement.
    expect((await sendRawHttp(base, 'GET /echo HTTP/1.0\r\n\r\n')).status).toBe(200);
    // Expect: 100-continue is still node's: the body is asked for and read.
    const continued = await sendRawHttp(
      base,
      'POST /echo HTTP/1.1\r\nHost: tolk\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 7\r\n\r\n{"b":2}',
      200,
    );
    expect(continued.status).toBe(100);
    expect(continued.body).toContain('{"b":2}');
  });
});
