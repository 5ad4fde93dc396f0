import type { ServiceName } from '@tolk/contracts';
import type { Logger } from '@tolk/logger';
import type { GatewayConfig } from '../config.js';
import { createUpstreamProxy, type UpstreamProxy } from './upstream-proxy.js';

/** One proxy per configured service (UPSTREAMS), each with its own pool of connections. */
export function createUpstreamProxies(deps: { config: GatewayConfig; logger: Logger }) {
  const { config, logger } = deps;
  const proxies = new Map<ServiceName, UpstreamProxy>();
  for (const [service, target] of Object.entries(config.UPSTREAMS) as [ServiceName, string][]) {
    proxies.set(
      service,
      createUpstreamProxy({
        service,
        target,
        timeoutMs: config.UPSTREAM_TIMEOUT_MS,
        maxSockets: config.UPSTREAM_MAX_SOCKETS,
        logger,
      }),
    );
  }
  return {
    /** The proxy to a service, or undefined when the gateway is not configured to reach it. */
    of(service: ServiceName): UpstreamProxy | undefined {
      return proxies.get(service);
    },
    close(): void {
      for (const proxy of proxies.values()) proxy.close();
    },
  };
}

export type UpstreamProxies = ReturnType<typeof createUpstreamProxies>;
