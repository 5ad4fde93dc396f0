import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, request } from '@tolk/testing';
import { openUpload, signAccessToken, startGateway, startUpstream } from './support.js';

/** Uploads 11 MB with fetch, `count` times, one after the other; prints what each one read. */
const UPLOAD_11_MB = `
  const [url, authorization, count] = process.argv.slice(1);
  const body = Buffer.alloc(11_000_000, 'a');
  const outcomes = [];
  for (let attempt = 0; attempt < Number(count); attempt++) {
    try {
      const headers = { authorization, 'content-type': 'application/json' };
      const response = await fetch(url, { method: 'PUT', headers, body });
      const answer = await response.json();
      outcomes.push(response.status + ' ' + answer.error?.code);
    } catch (err) {
      outcomes.push('failed: ' + (err.cause?.code ?? err.cause?.message ?? err));
    }
  }
  console.log(JSON.stringify(outcomes));
`;

function runScript(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script, ...args], (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
  });
}

const ENVELOPE = { error: { code: expect.any(String), message: expect.any(String) } };

/** A source-service stand-in that notes when each request's headers arrive, before its body. */
async function startNotingUpstream() {
  const started: string[] = [];
  const server = await listen((req, res) => {
    started.push(`${req.method} ${req.url}`);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          bytes: body.length,
          contentLength: req.headers['content-length'] ?? null,
          transferEncoding: req.headers['transfer-encoding'] ?? null,
        }),
      );
    });
  });
  return { ...server, started };
}

describe('gateway request bodies', () => {
  let project: Awaited<ReturnType<typeof startUpstream>>;
  let source: Awaited<ReturnType<typeof startNotingUpstream>>;

  beforeAll(async () => {
    project = await startUpstream();
    source = await startNotingUpstream();
  });
  afterAll(async () => {
    await source.close();
    await project.close();
  });

  async function gatewayWith(env: Record<string, string> = {}) {
    return startGateway({ PROJECT_SERVICE_URL: project.url, SOURCE_SERVICE_URL: source.url, ...env });
  }
  async function headersOf(sub: string, extra: Record<string, string> = {}) {
    return {
      authorization: `Bearer ${await signAccessToken({ sub })}`,
      'content-type': 'application/json',
      ...extra,
    };
  }

  it('when a body is still arriving, then the service sees nothing of it until it is complete, and gets it with a Content-Length', async () => {
    const gateway = await gatewayWith();
    try {
      const path = `/v1/projects/p-buffered/source`;
      const upload = openUpload(`${gateway.url}${path}`, await headersOf('buffering-user'));
      await upload.write('{"greeting":');
      // The client pauses mid-body, as a slow one does.
      // Kept: the pause of a slow client is the input; nothing may reach the service meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(source.started).not.toContain(`PUT ${path}`);

      await upload.write('"Hello"}');
      await upload.end();
      const answer = await upload.answer;

      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ bytes: 20, contentLength: '20', transferEncoding: null });
    } finally {
      await gateway.close();
    }
  });

  it('when a body trickles in slower than the minimum rate, then 408 in the envelope once the grace period is over, and the connection is closed', async () => {
    const gateway = await gatewayWith({ BODY_MIN_BYTES_PER_SECOND: '100', BODY_MIN_RATE_GRACE_MS: '500' });
    try {
      const path = `/v1/projects/p-trickle/source`;
      const upload = openUpload(`${gateway.url}${path}`, await headersOf('trickling-user'));
      const startedAt = Date.now();
      // One byte every 100 ms: 10 bytes per second, a tenth of the minimum.
      const trickle = setInterval(() => void upload.write('{'), 100);
      try {
        const answer = await Promise.race([
          upload.answer,
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 5 s')), 5000)),
        ]);
        expect(answer.status).toBe(408);
        expect(answer.body).toEqual(ENVELOPE);
        expect(answer.body.error.code).toBe('REQUEST_TIMEOUT');
        expect(answer.body.error.message).toMatch(/slower than 100 bytes per second/);
        expect(answer.headers.connection).toBe('close');
        expect(Date.now() - startedAt).toBeGreaterThanOrEqual(500);
        await upload.closed;
      } finally {
        clearInterval(trickle);
      }
      expect(source.started).not.toContain(`PUT ${path}`);
    } finally {
      await gateway.close();
    }
  });

  it('when a chunked upload is never finished, then 408 once BODY_TIMEOUT_MS has passed, not 504 from the service', async () => {
    const gateway = await gatewayWith({
      BODY_TIMEOUT_MS: '600',
      BODY_MIN_BYTES_PER_SECOND: '0',
      UPSTREAM_TIMEOUT_MS: '3000',
    });
    try {
      const upload = openUpload(
        `${gateway.url}/v1/projects/p-unfinished/source`,
        await headersOf('unfinished'),
      );
      await upload.write('{"a":"b"');
      const answer = await upload.answer;

      expect(answer.status).toBe(408);
      expect(answer.body).toEqual({
        error: { code: 'REQUEST_TIMEOUT', message: 'Request body was not complete within 600 ms' },
      });
      expect(answer.headers.connection).toBe('close');
      await upload.closed;
    } finally {
      await gateway.close();
    }
  });

  it('when one principal has MAX_UPLOADS_PER_PRINCIPAL uploads in progress, then its next one is 429 with Retry-After, and others still upload', async () => {
    const gateway = await gatewayWith({ MAX_UPLOADS_PER_PRINCIPAL: '2' });
    try {
      const url = `${gateway.url}/v1/projects/p-cap/source`;
      const busy = await headersOf('busy-uploader');
      // A caller's first request of a window waits for Redis (the general limit) and its token's
      // first check is asynchronous: warmed up, the uploads below are admitted in their order.
      expect((await request(`${gateway.url}/v1/projects/p-cap/source`, { headers: busy })).status).toBe(200);
      const held = [openUpload(url, busy), openUpload(url, busy)];
      await Promise.all(held.map((upload) => upload.write('{"x":')));

      const third = openUpload(url, busy);
      await third.write('{"x":"3"}');
      await third.end();
      const refused = await third.answer;
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(refused.body.error.message).toMatch(/at most 2 requests with a body/);
      expect(refused.headers['retry-after']).toBe('1');

      const other = openUpload(url, await headersOf('someone-else'));
      await other.end();
      expect((await other.answer).status).toBe(200);

      // A finished upload frees its slot.
      await held[0]!.write('"1"}');
      await held[0]!.end();
      expect((await held[0]!.answer).status).toBe(200);
      const again = openUpload(url, busy);
      await again.write('{"x":"4"}');
      await again.end();
      expect((await again.answer).status).toBe(200);

      held[1]!.destroy();
    } finally {
      await gateway.close();
    }
  });

  it('when uploads come without a token, then they count per client address', async () => {
    const gateway = await startGateway({
      IDENTITY_SERVICE_URL: project.url,
      PROJECT_SERVICE_URL: project.url,
      MAX_UPLOADS_PER_PRINCIPAL: '2',
    });
    try {
      const url = `${gateway.url}/v1/auth/signup`;
      const headers = { 'content-type': 'application/json' };
      const held = [openUpload(url, headers, 'POST'), openUpload(url, headers, 'POST')];
      await Promise.all(held.map((upload) => upload.write('{"email":')));

      const third = openUpload(url, headers, 'POST');
      await third.write('{}');
      await third.end();
      const refused = await third.answer;
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(refused.headers['retry-after']).toBe('1');

      for (const upload of held) upload.destroy();
    } finally {
      await gateway.close();
    }
  });

  it('when a request without a body comes from a principal with every upload slot taken, then it still passes', async () => {
    const gateway = await gatewayWith({ MAX_UPLOADS_PER_PRINCIPAL: '1' });
    try {
      const headers = await headersOf('reader');
      const held = openUpload(`${gateway.url}/v1/projects/p-read/source`, headers);
      await held.write('{');
      const read = await fetch(`${gateway.url}/v1/projects/p-read/source`, { headers });
      expect(read.status).toBe(200);
      held.destroy();
    } finally {
      await gateway.close();
    }
  });

  it('when node’s fetch uploads 11 MB, then it reads the 413 envelope every time (20 tries), never EPIPE', async () => {
    const gateway = await gatewayWith();
    try {
      // From a process of its own, as the CLI is: sharing the gateway's event loop, the client
      // would read each answer before the gateway could close the connection under it.
      const outcomes = await runScript(UPLOAD_11_MB, [
        `${gateway.url}/v1/projects/p-big/source`,
        `Bearer ${await signAccessToken({ sub: 'big-uploader' })}`,
        '20',
      ]);
      expect(JSON.parse(outcomes)).toEqual(Array.from({ length: 20 }, () => '413 PAYLOAD_TOO_LARGE'));
    } finally {
      await gateway.close();
    }
  }, 60_000);
});
