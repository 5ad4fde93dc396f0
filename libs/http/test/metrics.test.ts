import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, route } from '@tolk/http';
import { createLogger } from '@tolk/logger';
import { listen, parsePrometheusText, request, sampleValue, scrapeMetrics } from '@tolk/testing';

const SECRET = 's'.repeat(40);
const SOURCE_ROUTE = '/v1/projects/:projectId/source';
const SLOW_MS = 60;

describe('GET /metrics of a service (createServiceApp)', () => {
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    const router = Router();
    route(router, SOURCE_ROUTE, {
      get: async (req, res) => {
        // One project answers slowly, to see where its latency lands in the histogram.
        if (req.params['projectId'] === 'prj_slow') await new Promise((r) => setTimeout(r, SLOW_MS));
        res.json({ projectId: req.params['projectId'] });
      },
    });
    const app = createServiceApp({
      logger: createLogger({ name: 'metrics-test-service', level: 'silent' }),
      router,
      internalSecret: SECRET,
    });
    server = await listen(app);
  });
  afterAll(() => server.close());

  const scrape = () => scrapeMetrics(server.url);
  const requests = (labels: Record<string, string>) => async () =>
    sampleValue(await scrape(), 'http_requests_total', { service: 'metrics-test-service', ...labels });

  it('when scraped, then it answers the Prometheus text format with process metrics labelled by service', async () => {
    const response = await request(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.text).toContain('# TYPE http_requests_total counter');
    expect(response.text).toContain('# TYPE http_request_duration_seconds histogram');
    const samples = parsePrometheusText(response.text);
    expect(
      sampleValue(samples, 'process_cpu_user_seconds_total', { service: 'metrics-test-service' }),
    ).toBeGreaterThan(0);
    expect(
      sampleValue(samples, 'nodejs_heap_size_used_bytes', { service: 'metrics-test-service' }),
    ).toBeGreaterThan(0);
  });

  it('when a route is called with ids, then its pattern and status are counted and no id becomes a label', async () => {
    const ok = requests({ method: 'GET', route: SOURCE_ROUTE, status: '200' });
    const before = await ok();
    for (const id of ['prj_a1b2c3', 'prj_d4e5f6', 'prj_0789ab']) {
      expect((await request(`${server.url}/v1/projects/${id}/source`)).status).toBe(200);
    }
    expect((await ok()) - before).toBe(3);

    const samples = await scrape();
    const labelValues = samples.flatMap((s) => Object.values(s.labels));
    for (const id of ['prj_a1b2c3', 'prj_d4e5f6', 'prj_0789ab']) {
      expect(labelValues.some((value) => value.includes(id))).toBe(false);
    }
    expect(labelValues.some((value) => value.startsWith('/v1/projects/prj'))).toBe(false);
  });

  it('when a method is not allowed or a path is unknown, then 405 has the pattern and 404 is unmatched', async () => {
    const refused = requests({ method: 'DELETE', route: SOURCE_ROUTE, status: '405' });
    const unknown = requests({ method: 'GET', route: 'unmatched', status: '404' });
    const [refusedBefore, unknownBefore] = [await refused(), await unknown()];
    expect((await request(`${server.url}/v1/projects/prj_x/source`, { method: 'DELETE' })).status).toBe(405);
    expect((await request(`${server.url}/v1/nothing/prj_secret_id`)).status).toBe(404);
    expect((await refused()) - refusedBefore).toBe(1);
    expect((await unknown()) - unknownBefore).toBe(1);
    const labelValues = (await scrape()).flatMap((s) => Object.values(s.labels));
    expect(labelValues.some((value) => value.includes('prj_secret_id'))).toBe(false);
  });

  it('when requests take a known time, then the histogram counts them in the right buckets', async () => {
    const labels = { service: 'metrics-test-service', method: 'GET', route: SOURCE_ROUTE, status: '200' };
    const read = async () => {
      const samples = await scrape();
      return {
        count: sampleValue(samples, 'http_request_duration_seconds_count', labels),
        sum: sampleValue(samples, 'http_request_duration_seconds_sum', labels),
        fast: sampleValue(samples, 'http_request_duration_seconds_bucket', { ...labels, le: '0.05' }),
        all: sampleValue(samples, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }),
      };
    };
    const before = await read();
    for (let i = 0; i < 2; i++) {
      expect((await request(`${server.url}/v1/projects/prj_slow/source`)).status).toBe(200);
    }
    const after = await read();
    expect(after.count - before.count).toBe(2);
    expect(after.all - before.all).toBe(2);
    // Each took at least SLOW_MS, more than the 50 ms bucket holds.
    expect(after.fast - before.fast).toBe(0);
    expect(after.sum - before.sum).toBeGreaterThanOrEqual((2 * SLOW_MS) / 1000 - 0.005);
  });

  it('when /metrics and the health endpoints are called, then they are not counted as requests', async () => {
    const all = async () =>
      sampleValue(await scrape(), 'http_requests_total', { service: 'metrics-test-service' });
    const before = await all();
    await request(`${server.url}/healthz`);
    await request(`${server.url}/readyz`);
    expect(await all()).toBe(before);
  });
});
