import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '@tolk/testing';
import { DEFAULT_DASHBOARD_DIR, loadGatewayConfig } from '../src/config.js';
import { INTERNAL_SECRET, identityKeys, startGateway, startUpstream } from './support.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const INDEX =
  '<!doctype html><title>Tolk</title><script type="module" src="/assets/index-abc123.js"></script>';

describe('the web dashboard at /', () => {
  let dir: string;
  let identity: Awaited<ReturnType<typeof startUpstream>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let unbuilt: Awaited<ReturnType<typeof startGateway>>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tolk-dashboard-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), INDEX);
    await writeFile(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("tolk")');
    await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    identity = await startUpstream();
    gateway = await startGateway({ IDENTITY_SERVICE_URL: identity.url, DASHBOARD_DIR: dir });
    unbuilt = await startGateway({ DASHBOARD_DIR: path.join(dir, 'not-there') });
  });
  afterAll(async () => {
    await gateway.close();
    await unbuilt.close();
    await identity.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('when a browser opens /, then the app, not cached, under a CSP that allows no inline script', async () => {
    const response = await request(`${gateway.url}/`, { headers: HTML });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.text).toBe(INDEX);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each(['/projects/p1/history', '/device?code=BCDF-GHJK', '/keys?provider=openai', '/signin'])(
    'when a browser opens the client-side route %s, then the app',
    async (route) => {
      const response = await request(`${gateway.url}${route}`, { headers: HTML });
      expect(response.status).toBe(200);
      expect(response.text).toBe(INDEX);
    },
  );

  it('when a hashed asset is asked for, then it is served with a year-long immutable cache', async () => {
    const response = await request(`${gateway.url}/assets/index-abc123.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const favicon = await request(`${gateway.url}/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('cache-control')).toBe('no-cache');
  });

  it('when HEAD / is sent by a browser, then 200 with no body', async () => {
    const response = await fetch(`${gateway.url}/`, { method: 'HEAD', headers: HTML });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it.each(['/v1/nothing', '/v1/projects/p1/unknown', '/docs/nothing', '/healthz/x', '/assets/missing.js'])(
    'when a browser asks for %s, then 404 NOT_FOUND in the envelope, never the app',
    async (route) => {
      const response = await request(`${gateway.url}${route}`, { headers: HTML });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    },
  );

  it('when an API client (accepting anything) asks for an unknown path, then the JSON 404, not the app', async () => {
    for (const route of ['/', '/projects/p1']) {
      const response = await request(`${gateway.url}${route}`, { headers: { accept: '*/*' } });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('when a page is POSTed to, then 404 in the envelope', async () => {
    const response = await request(`${gateway.url}/projects`, { method: 'POST', body: {}, headers: HTML });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });

  it('when the routes of the API and the gateway are asked for, then they answer as before', async () => {
    expect((await request(`${gateway.url}/healthz`, { headers: HTML })).body).toEqual({ status: 'ok' });
    const docs = await request(`${gateway.url}/docs`, { headers: HTML });
    expect(docs.text).toContain('<html');
    expect(docs.text).not.toBe(INDEX);
    const openapi = await request(`${gateway.url}/v1/openapi.json`, { headers: HTML });
    expect(openapi.body.openapi).toMatch(/^3\.1/);
    const me = await request(`${gateway.url}/v1/user/me`, { headers: HTML });
    expect(me.status).toBe(401);
  });

  it('when the dashboard is not built, then / says how to build it', async () => {
    const response = await request(`${unbuilt.url}/`, { headers: HTML });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.text).toContain('npm run build -w @tolk/dashboard');
    expect(response.headers.get('retry-after')).toBe('5');
  });

  it('when DASHBOARD_DIR is not set, then it is the dashboard/dist of this checkout', () => {
    const config = loadGatewayConfig({
      JWT_PUBLIC_KEY: identityKeys.publicKeyPem,
      INTERNAL_JWT_SECRET: INTERNAL_SECRET,
    });
    expect(config.DASHBOARD_DIR).toBe(DEFAULT_DASHBOARD_DIR);
    expect(DEFAULT_DASHBOARD_DIR).toBe(path.resolve(import.meta.dirname, '..', '..', 'dashboard', 'dist'));
  });
});
