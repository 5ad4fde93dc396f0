/**
 * Retries of requests to Tolk, against the real system: a 429 from the gateway's own per-user
 * limit is waited out (as long as `Retry-After` says) for any request, a 5xx is retried only for
 * requests that do nothing twice (GET, PUT), backoff is bounded, Ctrl-C ends a wait, and a failure
 * after the retries prints the server's code and message and exits 4.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createApiClient, parseRetryAfter, retryDelayMs, type RetryInfo } from '../src/api/api-client.js';
import { ApiError } from '../src/errors.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';

/** The line the CLI prints before it waits for a retry. */
const WAITING = /(GET|PUT|POST) \/v1\/\S*: (\d{3}) ([A-Z_]+); waiting \d+\.\d s before retry (\d+) of (\d+)/;

describe('retryDelayMs', () => {
  it('when the server sends Retry-After, then that is the wait, but never more than 60 s', () => {
    expect(retryDelayMs(0, 2, 500)).toBe(2000);
    expect(retryDelayMs(3, 0, 500)).toBe(0);
    expect(retryDelayMs(0, 3600, 500)).toBe(60_000);
  });

  it('when it does not, then the wait doubles from the base, with up to 20 % jitter, capped at 20 s', () => {
    expect(retryDelayMs(0, undefined, 500, () => 0)).toBe(500);
    expect(retryDelayMs(1, undefined, 500, () => 0)).toBe(1000);
    expect(retryDelayMs(3, undefined, 500, () => 0.5)).toBe(4400);
    expect(retryDelayMs(10, undefined, 500, () => 0)).toBe(20_000);
    expect(retryDelayMs(60, undefined, 500, () => 0.999)).toBeLessThan(24_000);
  });
});

describe('parseRetryAfter', () => {
  it('when the header is absent or unreadable, then there is none (the backoff decides, not "at once")', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('')).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-1')).toBeUndefined();
  });

  it('when it is seconds or an HTTP date, then it is the seconds to wait', () => {
    expect(parseRetryAfter('0')).toBe(0);
    expect(parseRetryAfter(' 7 ')).toBe(7);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
  });
});

describe('the API client when a service’s database restarts (503 with Retry-After)', () => {
  /**
   * A stand-in for a service whose Postgres is restarting: the first `unavailable` requests get
   * what the services answer then, the next ones succeed. Each request's arrival time is kept.
   */
  async function restartingService(unavailable: number) {
    const arrivals: { method: string; at: number }[] = [];
    const server = createServer((req, res) => {
      arrivals.push({ method: req.method ?? '', at: Date.now() });
      req.resume();
      if (arrivals.length <= unavailable) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(
          JSON.stringify({
            error: {
              code: 'SERVICE_UNAVAILABLE',
              message: "The service's database is unavailable; retry after 1 s",
            },
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, arrivals, close: () => server.close() };
  }

  // Each waits out two Retry-After seconds against a stand-in of its own: they wait side by side.
  it.concurrent.for(['GET', 'PUT', 'DELETE'])(
    'when a %s is answered 503 with Retry-After: 1, then it is sent again after 1 s and succeeds',
    async (method, { expect }) => {
      const service = await restartingService(2);
      const retries: RetryInfo[] = [];
      try {
        const client = createApiClient({ apiUrl: service.url, onRetry: (info) => retries.push(info) });
        expect(
          await client.request(method, '/v1/projects/p1/source', { authenticated: false }),
        ).toStrictEqual({
          ok: true,
        });
        expect(retries.map((r) => [r.delayMs, r.reason])).toStrictEqual([
          [1000, '503 SERVICE_UNAVAILABLE'],
          [1000, '503 SERVICE_UNAVAILABLE'],
        ]);
        const [first, second, third] = service.arrivals.map((a) => a.at);
        expect(service.arrivals).toHaveLength(3);
        expect(second! - first!).toBeGreaterThanOrEqual(990);
        expect(third! - second!).toBeGreaterThanOrEqual(990);
      } finally {
        service.close();
      }
    },
  );

  it('when a POST is answered 503, then it is not sent again (it may have been done) and the error is the server’s', async () => {
    const service = await restartingService(1);
    try {
      const client = createApiClient({ apiUrl: service.url });
      const error = await client
        .request('POST', '/v1/projects', { body: {}, authenticated: false })
        .catch((e) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 });
      expect(service.arrivals).toHaveLength(1);
    } finally {
      service.close();
    }
  });
});

describe('tolk when the gateway rate-limits the user (429)', () => {
  const WINDOW_SECONDS = 2;
  let system: System;
  let cli: CliHarness;
  let owner: { token: string };
  let projectId: string;

  beforeAll(async () => {
    system = await startSystem({
      sources: true,
      gatewayEnv: { RATE_LIMIT_PER_USER: '5', RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) },
    });
    cli = await createCliHarness(system.base);
    owner = await system.signUp();
    const project = await system.call('POST', '/v1/projects', owner.token, {
      name: 'Limited',
      sourceLocale: 'en',
    });
    expect(project.status).toBe(201);
    projectId = project.body.projectId;
    await system.call('POST', `/v1/projects/${projectId}/locales`, owner.token, { locale: 'de' });
    await cli.writeJson('tolk.json', {
      apiUrl: system.base,
      projectId,
      sourceLocale: 'en',
      targetLocales: ['de'],
      files: 'locales/{locale}.json',
    });
    await cli.writeJson('locales/en.json', { hello: 'Hello', bye: 'Bye' });
  });
  afterAll(async () => {
    await cli?.remove();
    await system?.close();
  });

  /**
   * Spends the user's requests until the gateway refuses with the whole window still ahead
   * (Retry-After equal to the window), so the CLI's first request is refused too.
   */
  async function exhaustTheLimit() {
    for (let i = 0; i < 500; i++) {
      const response = await system.call('GET', '/v1/user/me', owner.token);
      if (response.status === 429 && Number(response.headers.get('retry-after')) >= WINDOW_SECONDS) return;
    }
    throw new Error('the gateway never refused: is its Redis up?');
  }

  const tolk = (args: string[], options: Parameters<CliHarness['tolk']>[1] = {}) =>
    cli.tolk(args, { ...options, env: { TOLK_TOKEN: owner.token, ...options.env } });

  it('when a request is refused with 429, then tolk says it is waiting, waits Retry-After and succeeds', async () => {
    await exhaustTheLimit();
    const started = Date.now();
    const result = await tolk(['status']);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Source version');
    const waiting = result.stderr.match(WAITING);
    expect(waiting?.slice(2)).toEqual(['429', 'RATE_LIMITED', '1', '4']);
    expect(result.stderr).toMatch(/: 429 RATE_LIMITED; waiting [12]\.0 s before retry 1 of 4/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('when a POST is refused with 429, then it is sent again (nothing was done) and done once', async () => {
    const other = await createCliHarness(system.base);
    try {
      await exhaustTheLimit();
      const result = await other.tolk(['init', '--name', 'Created after 429', '--targets', 'de', '--yes'], {
        env: { TOLK_TOKEN: owner.token },
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/POST \/v1\/projects: 429 RATE_LIMITED; waiting/);
      const projects = await system.call('GET', '/v1/projects', owner.token);
      const names = (projects.body.projects as { name: string }[]).map((project) => project.name);
      expect(names.filter((name) => name === 'Created after 429')).toHaveLength(1);
    } finally {
      await other.remove();
    }
  });

  it('when retries are exhausted (TOLK_MAX_RETRIES=0), then the server’s RATE_LIMITED is printed and exit is 4', async () => {
    await exhaustTheLimit();
    const result = await tolk(['push', '--json'], { env: { TOLK_MAX_RETRIES: '0' } });

    expect(result.code).toBe(4);
    expect(result.stderr).not.toMatch(WAITING);
    expect(result.stderr).toMatch(/error: RATE_LIMITED: Too many requests; retry after \d+ s/);
    expect(result.json()).toEqual({
      error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many requests/) },
    });
    // Nothing was stored: 404 once the window has passed (429 until then).
    await expect
      .poll(async () => (await system.call('GET', `/v1/projects/${projectId}/source`, owner.token)).status, {
        timeout: (WINDOW_SECONDS + 3) * 1000,
        interval: 200,
      })
      .toBe(404);
  });

  it('when Ctrl-C comes while tolk waits, then it stops at once with 130', async () => {
    await exhaustTheLimit();
    const controller = new AbortController();
    let abortedAt = 0;
    const result = await tolk(['status'], {
      signal: controller.signal,
      onOutput: (_stdout, stderr) => {
        if (!abortedAt && WAITING.test(stderr)) {
          abortedAt = Date.now();
          controller.abort();
        }
      },
    });

    expect(abortedAt).toBeGreaterThan(0);
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('Interrupted.');
    // The wait was at least a second; Ctrl-C did not sit it out.
    expect(Date.now() - abortedAt).toBeLessThan(500);
  });
});

describe('tolk when a service behind the gateway fails (5xx)', () => {
  let system: System;
  let cli: CliHarness;
  let owner: { token: string };
  let projectId: string;
  /** Set to lose the answer of the next request that matches: the service does the work, the client gets no answer. */
  const lose: { source?: string; project?: string } = {};

  /** Lets the service handle the request, then drops the connection instead of answering. */
  const losingAnswers =
    (service: keyof typeof lose) =>
    (app: RequestListener): RequestListener =>
    (req, res) => {
      if (lose[service] !== undefined && `${req.method} ${req.url}`.startsWith(lose[service])) {
        lose[service] = undefined;
        res.end = (() => {
          res.socket?.destroy();
          return res;
        }) as typeof res.end;
      }
      app(req, res);
    };

  beforeAll(async () => {
    system = await startSystem({
      sources: true,
      wrapServices: { source: losingAnswers('source'), project: losingAnswers('project') },
    });
    cli = await createCliHarness(system.base);
    owner = await system.signUp();
    const init = await cli.tolk(['init', '--name', 'Failing', '--targets', 'de', '--yes', '--json'], {
      env: { TOLK_TOKEN: owner.token },
    });
    expect(init.code).toBe(0);
    projectId = init.json().projectId;
  });
  afterAll(async () => {
    await cli?.remove();
    await system?.close();
  });

  const tolk = (args: string[], options: Parameters<CliHarness['tolk']>[1] = {}) =>
    cli.tolk(args, { ...options, env: { TOLK_TOKEN: owner.token, ...options.env } });

  it('when a service is down and comes back while tolk retries, then the command succeeds', async () => {
    await system.stopService('locale');
    let restarted: Promise<void> | undefined;
    try {
      const result = await tolk(['status'], {
        onOutput: (_stdout, stderr) => {
          // Down for two attempts and the wait before the third.
          if (!restarted && /retry 2 of 4/.test(stderr)) restarted = system.startService('locale');
        },
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('de');
      expect(result.stderr).toMatch(
        /GET \/v1\/projects\/\S+\/locales: 503 SERVICE_UNAVAILABLE; waiting 0\.[56] s before retry 1 of 4/,
      );
      expect(result.stderr).toMatch(/503 SERVICE_UNAVAILABLE; waiting 1\.[0-2] s before retry 2 of 4/);
      expect(result.stderr).not.toContain('error:');
    } finally {
      await (restarted ?? system.startService('locale'));
    }
  });

  it('when a service stays down, then the 503 is printed after the retries and exit is 4', async () => {
    await system.stopService('source');
    try {
      await cli.writeJson('locales/en.json', { hello: 'Hello' });
      const result = await tolk(['push'], { env: { TOLK_MAX_RETRIES: '2' } });
      expect(result.code).toBe(4);
      expect(result.stderr.match(new RegExp(WAITING, 'g'))).toHaveLength(2);
      expect(result.stderr).toMatch(/error: SERVICE_UNAVAILABLE: The source service is unavailable/);
    } finally {
      await system.startService('source');
    }
  });

  it('when the answer to an upload (PUT) is lost, then it is sent again and makes no second version', async () => {
    await cli.writeJson('locales/en.json', { hello: 'Hello', bye: 'Bye' });
    lose.source = `PUT /v1/projects/${projectId}/source`;
    const before = await system.call('GET', `/v1/projects/${projectId}/source`, owner.token);
    const uploadsBefore = system.upstreamRequests.filter((r) => r.service === 'source' && r.method === 'PUT');

    const result = await tolk(['push']);

    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/PUT \/v1\/projects\/\S+\/source: 503 SERVICE_UNAVAILABLE; waiting/);
    const uploads = system.upstreamRequests.filter((r) => r.service === 'source' && r.method === 'PUT');
    expect(uploads.length - uploadsBefore.length).toBe(2);
    const after = await system.call('GET', `/v1/projects/${projectId}/source`, owner.token);
    const versionBefore = before.status === 200 ? (before.body.version as number) : 0;
    expect(after.body.version).toBe(versionBefore + 1);
    expect(result.stdout).toContain(`source version ${versionBefore + 1}`);
  });

  it('when the answer to creating a project (POST) is lost, then it is not sent again: exit 4 and one project', async () => {
    const other = await createCliHarness(system.base);
    try {
      lose.project = 'POST /v1/projects';
      const creates = () =>
        system.upstreamRequests.filter(
          (r) => r.service === 'project' && r.method === 'POST' && r.path === '/v1/projects',
        ).length;
      const createsBefore = creates();

      const result = await other.tolk(['init', '--name', 'Answer lost', '--targets', 'de', '--yes'], {
        env: { TOLK_TOKEN: owner.token },
      });

      expect(result.code).toBe(4);
      expect(result.stderr).not.toMatch(WAITING);
      expect(result.stderr).toMatch(/error: SERVICE_UNAVAILABLE: The project service is unavailable/);
      expect(creates() - createsBefore).toBe(1);
      // The project was created: sending the POST again would have made a second one.
      const projects = await system.call('GET', '/v1/projects', owner.token);
      const names = (projects.body.projects as { name: string }[]).map((project) => project.name);
      expect(names.filter((name) => name === 'Answer lost')).toHaveLength(1);
      await expect(other.readText('tolk.json')).rejects.toThrow();
    } finally {
      lose.project = undefined;
      await other.remove();
    }
  });

  it('when creating a project meets a service that is down, then the 503 is not retried and exit is 4', async () => {
    const other = await createCliHarness(system.base);
    await system.stopService('project');
    try {
      const result = await other.tolk(['init', '--name', 'Never made', '--targets', 'de', '--yes'], {
        env: { TOLK_TOKEN: owner.token },
      });
      expect(result.code).toBe(4);
      expect(result.stderr).not.toMatch(WAITING);
      expect(result.stderr).toMatch(/error: SERVICE_UNAVAILABLE: \S/);
    } finally {
      await system.startService('project');
      await other.remove();
    }
  });
});
