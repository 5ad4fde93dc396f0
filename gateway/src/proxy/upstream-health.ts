import type { ServiceName } from '@tolk/contracts';

export type UpstreamHealth = Partial<Record<ServiceName, 'up' | 'down'>>;

/** Asks every configured service's /healthz at once; no answer within `timeoutMs` is down. */
export function createUpstreamHealthProbe(deps: {
  upstreams: Partial<Record<ServiceName, string>>;
  timeoutMs: number;
}) {
  return async function probeUpstreams(): Promise<UpstreamHealth> {
    const results = await Promise.all(
      Object.entries(deps.upstreams).map(async ([service, url]) => {
        try {
          const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(deps.timeoutMs) });
          await response.body?.cancel();
          return [service, response.ok ? 'up' : 'down'] as const;
        } catch {
          return [service, 'down'] as const;
        }
      }),
    );
    return Object.fromEntries(results);
  };
}
