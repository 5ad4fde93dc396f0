/**
 * Following one request through the system by its id: the gateway forwards it to the service,
 * the service's outbox keeps it with the event, RabbitMQ carries it in a header, and the consumer
 * of that event logs under it. And the gateway's own /metrics, beside it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { request, sampleValue, scrapeMetrics } from '@tolk/testing';
import { startSystem, type System } from './system.js';

type LogLine = Record<string, unknown> & { msg?: string; requestId?: string };

describe('request ids and metrics through the gateway', () => {
  let system: System;

  beforeAll(async () => {
    system = await startSystem({ sources: true, captureLogs: true });
  });
  afterAll(async () => {
    await system?.close();
  });

  const lines = (): LogLine[] => system.logLines.map((line) => JSON.parse(line) as LogLine);

  /** How long the bus may take to carry an event between the services. */
  const settled = { timeout: 10_000, interval: 20 };

  it('when a request id is sent to the gateway, then the service, the membership lookup and the consumer of its event log under it', async () => {
    const user = await system.signUp();
    const created = await system.call('POST', '/v1/projects', user.token, {
      name: 'Traced',
      sourceLocale: 'en',
    });
    expect(created.status).toBe(201);
    const projectId = created.body.projectId as string;
    const send = (method: string, path: string, requestId: string, body: unknown) =>
      request(`${system.base}${path}`, {
        method,
        body,
        headers: { authorization: `Bearer ${user.token}`, 'x-request-id': requestId },
      });

    // The project's first project-scoped request: the gateway asks project-service about membership,
    // and locale-service asks again just before the locale is stored (the member may have left).
    const addLocaleId = `e2e-locale-${randomUUID()}`;
    const added = await send('POST', `/v1/projects/${projectId}/locales`, addLocaleId, { locale: 'de' });
    expect(added.status).toBe(201);
    const lookupPath = `/internal/projects/${projectId}/members/${encodeURIComponent(user.userId)}`;
    expect(lines().filter((line) => line.msg === 'request' && line['path'] === lookupPath)).toEqual([
      expect.objectContaining({ requestId: addLocaleId, status: 200 }),
      expect.objectContaining({ requestId: addLocaleId, status: 200 }),
    ]);

    // locale-service's queue is bound to the exchange that every test file running beside this
    // one publishes to, so it consumes their SourceChanged too, each under its own request id.
    // One of them is consumed here first, as they often are under load.
    const otherEvent = {
      id: randomUUID(),
      type: 'SourceChanged',
      occurredAt: Date.now(),
      producer: 'source-service',
      data: {
        projectId: randomUUID(),
        version: 1,
        previousVersion: 0,
        keyCount: 1,
        added: 1,
        modified: 0,
        deleted: 0,
      },
    };
    await system.publishEvent(otherEvent, randomUUID());
    await vi.waitFor(() => {
      const found = lines().find(
        (line) => line.msg === 'event consumed' && line['eventId'] === otherEvent.id,
      );
      expect(found, 'the other SourceChanged consumed').toBeDefined();
      return found!;
    }, settled);

    const uploadId = `e2e-upload-${randomUUID()}`;
    const uploaded = await send('PUT', `/v1/projects/${projectId}/source`, uploadId, { title: 'Hello' });
    expect(uploaded.status).toBe(200);
    expect(uploaded.headers.get('x-request-id')).toBe(uploadId);

    // source-service wrote the upload's SourceChanged to its outbox under the upload's id…
    const outboxed = (await system.outboxEvents('source')).filter((event) => event.type === 'SourceChanged');
    expect(outboxed).toEqual([expect.objectContaining({ requestId: uploadId })]);
    const uploadEventId = outboxed[0]!.id;
    // …and locale-service consumed that event (told from other test files' by its id) under it.
    const consumed = await vi.waitFor(() => {
      const found = lines().find(
        (line) => line.msg === 'event consumed' && line['eventId'] === uploadEventId,
      );
      expect(found, 'SourceChanged consumed').toBeDefined();
      return found!;
    }, settled);
    expect(consumed).toMatchObject({ eventType: 'SourceChanged', requestId: uploadId, applied: true });

    // The access lines of the upload: the gateway's and source-service's, both under the id sent.
    const uploadLines = lines().filter(
      (line) =>
        line.msg === 'request' &&
        line['method'] === 'PUT' &&
        line['path'] === `/v1/projects/${projectId}/source`,
    );
    expect(uploadLines.map((line) => line.requestId)).toEqual([uploadId, uploadId]);
  });

  it('when the gateway is scraped on its metrics port, then its own metrics count the proxied routes by pattern', async () => {
    const user = await system.signUp();
    const before = sampleValue(await scrapeMetrics(system.metricsUrl), 'http_requests_total', {
      method: 'GET',
      route: '/v1/user/me',
      status: '200',
    });
    expect((await system.call('GET', '/v1/user/me', user.token)).status).toBe(200);
    const samples = await scrapeMetrics(system.metricsUrl);
    const after = sampleValue(samples, 'http_requests_total', {
      method: 'GET',
      route: '/v1/user/me',
      status: '200',
    });
    // The gateway's count and identity-service's, which runs in this process too.
    expect(after - before).toBe(2);
    expect(samples.flatMap((s) => Object.values(s.labels)).some((value) => value.includes(user.userId))).toBe(
      false,
    );
    // Not on the public port (no METRICS_TOKEN here).
    expect((await request(`${system.base}/metrics`)).status).toBe(404);
  });
});
