/**
 * Issue 13, item 1: one user's slow uploads must not stop everyone else's. Hundreds of uploads
 * from one principal trickle a byte a second over raw sockets while another user reads and
 * writes a source, through the real gateway in front of the real source-service. The gateway's
 * pool of connections to a service is cut to 100 (UPSTREAM_MAX_SOCKETS) so that 300 slow uploads
 * exceed it, as the 600 of the report exceeded the default 512.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlowUploads } from '../../bench/slow-uploads.js';
import { startSystem, type System } from '../e2e/system.js';
import { victimP99 } from './victim-p99.js';

const SLOW_UPLOADS = 300;
const VICTIM_CALLS = 100;
/** Past this a call counts as failed; two of them put p99 of 100 calls over a second anyway. */
const CALL_TIMEOUT_MS = 2000;

async function userWithProject(system: System, name: string) {
  const user = await system.signUp();
  const created = await system.call('POST', '/v1/projects', user.token, { name, sourceLocale: 'en' });
  expect(created.status).toBe(201);
  return { ...user, sourcePath: `/v1/projects/${created.body.projectId as string}/source` };
}

/** p99 of the victim's GET and PUT of its source, called one after the other. */
function sourceP99(system: System, victim: { token: string; sourcePath: string }): Promise<number> {
  return victimP99({
    calls: VICTIM_CALLS,
    timeoutMs: CALL_TIMEOUT_MS,
    request: (n, signal) => {
      const put = n % 2 === 1;
      return fetch(`${system.base}${victim.sourcePath}`, {
        method: put ? 'PUT' : 'GET',
        headers: { authorization: `Bearer ${victim.token}`, 'content-type': 'application/json' },
        body: put ? JSON.stringify({ greeting: `Hello ${n}` }) : undefined,
        signal,
      });
    },
  });
}

describe('hundreds of slow uploads from one user', () => {
  describe('held by the gateway (no upload cap, no minimum rate)', () => {
    let system: System;
    beforeAll(async () => {
      system = await startSystem({
        sources: true,
        gatewayEnv: {
          UPSTREAM_MAX_SOCKETS: '100',
          MAX_UPLOADS_PER_PRINCIPAL: '1000',
          BODY_MIN_BYTES_PER_SECOND: '0',
        },
      });
    });
    afterAll(async () => {
      await system.close();
    });

    it('when they trickle, then another user’s source GET and PUT keep p99 under 1 s and no slow body reaches source-service', async () => {
      const attacker = await userWithProject(system, 'Slow');
      const victim = await userWithProject(system, 'Busy');
      expect((await system.call('PUT', victim.sourcePath, victim.token, { greeting: 'Hello' })).status).toBe(
        200,
      );

      const slow = await startSlowUploads({
        url: `${system.base}${attacker.sourcePath}`,
        headers: { authorization: `Bearer ${attacker.token}`, 'content-type': 'application/json' },
        count: SLOW_UPLOADS,
        everyMs: 1000,
      });
      try {
        expect(await sourceP99(system, victim)).toBeLessThan(1000);
        expect(slow.open()).toBe(SLOW_UPLOADS);
        const slowAtSource = system.upstreamRequests.filter(
          (request) => request.service === 'source' && request.path === attacker.sourcePath,
        );
        expect(slowAtSource).toEqual([]);
      } finally {
        slow.stop();
      }
    });
  });

  describe('with the default limits', () => {
    let system: System;
    beforeAll(async () => {
      system = await startSystem({ sources: true, gatewayEnv: { UPSTREAM_MAX_SOCKETS: '100' } });
    });
    afterAll(async () => {
      await system.close();
    });

    it('when they trickle, then all but 10 are refused 429 at once, those 10 get 408 within seconds, and another user keeps p99 under 1 s', async () => {
      const attacker = await userWithProject(system, 'Slow');
      const victim = await userWithProject(system, 'Busy');
      expect((await system.call('PUT', victim.sourcePath, victim.token, { greeting: 'Hello' })).status).toBe(
        200,
      );

      const started = performance.now();
      const slow = await startSlowUploads({
        url: `${system.base}${attacker.sourcePath}`,
        headers: { authorization: `Bearer ${attacker.token}`, 'content-type': 'application/json' },
        count: SLOW_UPLOADS,
        everyMs: 1000,
      });
      try {
        expect(await sourceP99(system, victim)).toBeLessThan(1000);
        // The default minimum rate (1 KiB/s after 5 s) cuts a byte a second long before the deadline.
        await expect
          .poll(() => Object.fromEntries(slow.outcomes), { timeout: 20_000, interval: 50 })
          .toEqual({ 429: SLOW_UPLOADS - 10, 408: 10 });
        expect(performance.now() - started).toBeLessThan(15_000);
      } finally {
        slow.stop();
      }
    });
  });
});
