import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { Bus } from '@tolk/bus';
import { errorBody } from '@tolk/http';
import type { Logger } from '@tolk/logger';
import type { UpstreamHealth } from './proxy/upstream-health.js';

/** `GET /healthz` (the process answers) and `GET /readyz` (it can route something). */
export function mountHealthRoutes(
  app: Express,
  deps: {
    probeUpstreams: () => Promise<UpstreamHealth>;
    redis: Redis | undefined;
    bus: Bus | undefined;
    logger: Logger;
  },
): void {
  const { probeUpstreams, redis, bus, logger } = deps;
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Ready while it can route anything: one service down makes its routes answer 503 each, and is
  // reported here as `degraded`, but does not take the gateway out of rotation — on Kubernetes
  // that would take every gateway pod out with it and turn one service's outage into everyone's.
  // Not ready only when no service it routes to answers.
  app.get('/readyz', async (_req, res) => {
    const upstreams = await probeUpstreams();
    const states = Object.entries(upstreams);
    const down = states.filter(([, state]) => state === 'down').map(([service]) => service);
    // Redis and RabbitMQ are reported, not required: without them the limits fall back (see
    // rate-limit/limiters.ts) and memberships are asked for every time or expire by TTL.
    const redisState = !redis ? 'not configured' : redis.status === 'ready' ? 'up' : 'down';
    const events = !bus ? 'not configured' : bus.isConnected() ? 'up' : 'down';
    if (states.length > 0 && down.length === states.length) {
      logger.warn({ upstreams }, 'not ready');
      res.status(503).json(errorBody('SERVICE_UNAVAILABLE', `Not ready: ${down.join(', ')} not reachable`));
      return;
    }
    if (down.length > 0) logger.warn({ upstreams }, 'degraded');
    res.json({ status: down.length > 0 ? 'degraded' : 'ready', upstreams, redis: redisState, events });
  });
}
