import { performance } from 'node:perf_hooks';
import { expect } from 'vitest';

/**
 * Another user's p99 beside a hostile one: `request(n)` (the victim's n-th call, given a
 * signal that gives up after `timeoutMs`) made one after the other, at least `calls` times and
 * until `done` says so; each must answer 200. A call past the timeout counts as that long, and
 * after two of them the p99 is past it anyway: the calls stop.
 */
export async function victimP99(options: {
  calls: number;
  timeoutMs: number;
  done?: () => boolean;
  request: (n: number, signal: AbortSignal) => Promise<Response>;
}): Promise<number> {
  const { calls, timeoutMs, done = () => true } = options;
  const durations: number[] = [];
  let timeouts = 0;
  for (let n = 0; (n < calls || !done()) && timeouts < 2; n++) {
    const started = performance.now();
    try {
      const response = await options.request(n, AbortSignal.timeout(timeoutMs));
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      durations.push(performance.now() - started);
    } catch (err) {
      if ((err as Error).name !== 'TimeoutError') throw err;
      timeouts++;
      durations.push(timeoutMs);
    }
  }
  const sorted = durations.sort((a, b) => a - b);
  return sorted[Math.ceil(0.99 * sorted.length) - 1]!;
}

/**
 * The victim's calls for victimP99: its project's `GET …/locales/de` and `PUT …/source` (a
 * source that changes each time), in turn, through the gateway at `base`.
 */
export function localeReadsAndSourceWrites(base: string, token: string, projectId: string) {
  return (n: number, signal: AbortSignal): Promise<Response> => {
    const put = n % 2 === 1;
    return fetch(`${base}/v1/projects/${projectId}/${put ? 'source' : 'locales/de'}`, {
      method: put ? 'PUT' : 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: put ? JSON.stringify({ greeting: `Hello {name} ${n}` }) : undefined,
      signal,
    });
  };
}
