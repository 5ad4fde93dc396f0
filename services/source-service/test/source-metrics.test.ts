import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleValue, scrapeMetrics, settled } from '@tolk/testing';
import { startSourceService, type SourceService } from './source-harness.js';

let service: SourceService;
beforeAll(async () => {
  service = await startSourceService();
});
afterAll(async () => {
  await service?.close();
});

const SOURCE_ROUTE = '/v1/projects/:projectId/source';

describe('GET /metrics of source-service', () => {
  it('when sources are uploaded and read, then requests count under the route pattern and the relay reports each event', async () => {
    const { projectId, owner } = await service.createProject();
    const read = async () => {
      const samples = await scrapeMetrics(service.url);
      const requests = (method: string, status: string) =>
        sampleValue(samples, 'http_requests_total', {
          service: 'source-service',
          method,
          route: SOURCE_ROUTE,
          status,
        });
      return {
        samples,
        uploads: requests('PUT', '200'),
        notFound: requests('GET', '404'),
        relayed: sampleValue(samples, 'outbox_relay_lag_seconds_count', { schema: 'source' }),
      };
    };
    const before = await read();

    // Before any upload the source is 404: a matched route, so still its pattern.
    expect((await service.call('GET', `/v1/projects/${projectId}/source`, { as: owner })).status).toBe(404);
    for (const body of [{ title: 'Hello' }, { title: 'Hello', bye: 'Bye' }]) {
      expect(
        (await service.call('PUT', `/v1/projects/${projectId}/source`, { as: owner, body })).status,
      ).toBe(200);
    }

    const after = await read();
    expect(after.uploads - before.uploads).toBe(2);
    expect(after.notFound - before.notFound).toBe(1);
    const labelValues = after.samples.flatMap((s) => Object.values(s.labels));
    expect(labelValues.some((value) => value.includes(projectId))).toBe(false);

    // Two SourceChanged events went through the outbox: both relayed, nothing left pending.
    await expect
      .poll(async () => (await read()).relayed - before.relayed, {
        ...settled,
        message: 'both events relayed',
      })
      .toBe(2);
    const relayed = await scrapeMetrics(service.url);
    expect(sampleValue(relayed, 'outbox_pending_events', { schema: 'source' })).toBe(0);
    expect(sampleValue(relayed, 'outbox_oldest_pending_age_seconds', { schema: 'source' })).toBe(0);
  });
});
