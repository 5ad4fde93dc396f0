import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listen, request } from '@tolk/testing';
import { REFUSING_URL, rawRequest, signAccessToken, startGateway, startUpstream } from './support.js';

const MAX_BODY_BYTES = 64 * 1024;

describe('gateway body limits', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let authorization: string;

  beforeAll(async () => {
    upstream = await startUpstream();
    gateway = await startGateway({
      SERVICE_URLS: JSON.stringify({ identity: upstream.url, project: upstream.url, source: upstream.url }),
      MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    });
    authorization = `Bearer ${await signAccessToken()}`;
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.received.length = 0;
  });

  it('when Content-Length is over the limit, then 413 before the service sees anything', async () => {
    const body = Buffer.alloc(MAX_BODY_BYTES + 1, 'a');
    const response = await rawRequest(`${gateway.url}/v1/projects/p1/source`, {
      method: 'PUT',
      headers: { authorization, 'content-type': 'application/json', 'content-length': String(body.length) },
      chunks: [body],
    });

    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) } });
    expect(response.headers['x-request-id']).toBeTruthy();
    expect(upstream.received).toHaveLength(0);
  });

  it('when a chunked body grows over the limit, then 413 and the service never gets a whole request', async () => {
    const chunks = Array.from({ length: 8 }, () => Buffer.alloc(16 * 1024, 'b'));
    const response = await rawRequest(`${gateway.url}/v1/projects/p1/source`, {
      method: 'PUT',
      headers: { authorization, 'content-type': 'application/json' },
      chunks,
    });

    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(response.headers['x-request-id']).toBeTruthy();
    // Kept: an absence has nothing to await; a forward already under way would land within this.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upstream.received).toHaveLength(0);
  });

  it('when a chunked body stays within the limit, then it is forwarded', async () => {
    const chunks = Array.from({ length: 3 }, () => Buffer.alloc(16 * 1024, 'c'));
    const response = await rawRequest(`${gateway.url}/v1/projects/p1/source`, {
      method: 'PUT',
      headers: { authorization, 'content-type': 'application/json' },
      chunks,
    });

    expect(response.status).toBe(200);
    expect(upstream.received[0]!.body.length).toBe(48 * 1024);
  });

  it('when a login body is over 16 KiB, then 413 (declared or chunked)', async () => {
    const body = Buffer.from(JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(17 * 1024) }));
    const declared = await rawRequest(`${gateway.url}/v1/auth/login`, {
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      chunks: [body],
    });
    const chunked = await rawRequest(`${gateway.url}/v1/auth/login`, {
      headers: { 'content-type': 'application/json' },
      chunks: [body.subarray(0, 8 * 1024), body.subarray(8 * 1024)],
    });

    expect(declared.status).toBe(413);
    expect(chunked.status).toBe(413);
    expect(chunked.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(upstream.received).toHaveLength(0);
  });
});

describe('gateway upstream failures', () => {
  // Answers the membership checks of the project-scoped routes these tests call.
  let projectService: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    projectService = await startUpstream();
  });
  afterAll(async () => {
    await projectService.close();
  });

  it('when the service refuses connections, then 503 SERVICE_UNAVAILABLE', async () => {
    const gateway = await startGateway({
      SOURCE_SERVICE_URL: REFUSING_URL,
      PROJECT_SERVICE_URL: projectService.url,
    });
    try {
      const response = await request(`${gateway.url}/v1/projects/p1/source`, {
        headers: { authorization: `Bearer ${await signAccessToken()}` },
      });

      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        error: { code: 'SERVICE_UNAVAILABLE', message: 'The source service is unavailable' },
      });
      expect(response.headers.get('x-request-id')).toBeTruthy();
    } finally {
      await gateway.close();
    }
  });

  it('when the service does not answer in time, then 504 GATEWAY_TIMEOUT', async () => {
    const slow = await startUpstream((_received, res) => {
      setTimeout(() => res.writeHead(200).end('{}'), 2000);
    });
    const gateway = await startGateway({
      SOURCE_SERVICE_URL: slow.url,
      PROJECT_SERVICE_URL: projectService.url,
      UPSTREAM_TIMEOUT_MS: '200',
    });
    try {
      const started = Date.now();
      const response = await request(`${gateway.url}/v1/projects/p1/source`, {
        headers: { authorization: `Bearer ${await signAccessToken()}` },
      });

      expect(response.status).toBe(504);
      expect(response.body).toEqual({
        error: { code: 'GATEWAY_TIMEOUT', message: 'The source service did not answer in time' },
      });
      expect(response.headers.get('x-request-id')).toBeTruthy();
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await gateway.close();
      await slow.close();
    }
  });

  it('when the service answers slowly but within the timeout, then the answer passes', async () => {
    const slowish = await startUpstream((_received, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"late":true}'), 100);
    });
    const gateway = await startGateway({
      SOURCE_SERVICE_URL: slowish.url,
      PROJECT_SERVICE_URL: projectService.url,
      UPSTREAM_TIMEOUT_MS: '1000',
    });
    try {
      const response = await request(`${gateway.url}/v1/projects/p1/source`, {
        headers: { authorization: `Bearer ${await signAccessToken()}` },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ late: true });
    } finally {
      await gateway.close();
      await slowish.close();
    }
  });

  it("when a kept-alive connection is reused, then the timeout is still UPSTREAM_TIMEOUT_MS, not the service's Keep-Alive hint", async () => {
    // Node shortens a pooled socket's timeout to what the server's Keep-Alive header announces
    // (less a second) and keeps it when the socket is reused.
    let calls = 0;
    const ports = new Set<number | undefined>();
    const hinting = await startUpstream((_received, res) => {
      ports.add(res.socket?.remotePort);
      const delay = calls++ === 0 ? 0 : 1500;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'keep-alive': 'timeout=2' });
        res.end(`{"call":${calls}}`);
      }, delay);
    });
    const gateway = await startGateway({
      SOURCE_SERVICE_URL: hinting.url,
      PROJECT_SERVICE_URL: projectService.url,
      UPSTREAM_TIMEOUT_MS: '4000',
    });
    try {
      const headers = { authorization: `Bearer ${await signAccessToken()}` };
      const first = await request(`${gateway.url}/v1/projects/p1/source`, { headers });
      expect(first.status).toBe(200);
      const second = await request(`${gateway.url}/v1/projects/p1/source`, { headers });
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ call: 2 });
      expect(ports.size).toBe(1); // the second call came over the first one's connection
    } finally {
      await gateway.close();
      await hinting.close();
    }
  });

  it('when the service dies in the middle of its answer, then the client sees a cut response, not a hang', async () => {
    const dying = await startUpstream((_received, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const gateway = await startGateway({
      SOURCE_SERVICE_URL: dying.url,
      PROJECT_SERVICE_URL: projectService.url,
    });
    try {
      await expect(
        request(`${gateway.url}/v1/projects/p1/source`, {
          headers: { authorization: `Bearer ${await signAccessToken()}` },
        }),
      ).rejects.toThrow();
    } finally {
      await gateway.close();
      await dying.close();
    }
  });

  it('when the client gives up waiting, then the request to the service is abandoned too', async () => {
    let upstreamRequestReceived: () => void = () => {};
    const received = new Promise<void>((resolve) => (upstreamRequestReceived = resolve));
    let upstreamRequestClosed: () => void = () => {};
    const closed = new Promise<void>((resolve) => (upstreamRequestClosed = resolve));
    const stalling = await listen((req) => {
      req.resume();
      req.socket.once('close', () => upstreamRequestClosed());
      upstreamRequestReceived();
    });
    const gateway = await startGateway({
      SOURCE_SERVICE_URL: stalling.url,
      PROJECT_SERVICE_URL: projectService.url,
    });
    try {
      const client = new AbortController();
      const response = fetch(`${gateway.url}/v1/projects/p1/source`, {
        headers: { authorization: `Bearer ${await signAccessToken()}` },
        signal: client.signal,
      });
      // It gives up once the service has the request, however long the gateway's checks took
      // (on a loaded machine, longer than any fixed wait).
      await received;
      client.abort();
      await expect(response).rejects.toThrow();
      await closed;
    } finally {
      await gateway.close();
      await stalling.close();
    }
  });
});
