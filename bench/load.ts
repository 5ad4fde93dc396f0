import http from 'node:http';
import autocannon from 'autocannon';

export type Throughput = {
  requestsPerSecond: number;
  errors: number;
  non2xx: number;
  p50: number;
  p99: number;
};

/** Closed-loop load: as many requests as `connections` keep in flight, for `seconds`. */
export async function measureThroughput(options: {
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}): Promise<Throughput> {
  const result = await autocannon({
    url: options.url,
    headers: options.headers,
    connections: options.connections,
    duration: options.seconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

export type FixedRate = {
  offeredRate: number;
  achievedRate: number;
  errors: number;
  p50: number;
  p99: number;
};

/**
 * Open-loop load at a fixed rate. Latency is measured from the moment each request was due, so a
 * server that falls behind is charged for the queueing it causes (no coordinated omission).
 */
export async function measureFixedRate(options: {
  url: string;
  headers: Record<string, string>;
  rate: number;
  seconds: number;
}): Promise<FixedRate> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL(options.url);
  const total = options.rate * options.seconds;
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const tickMs = 5;
  const perTick = (options.rate * tickMs) / 1000;
  const inflight: Promise<void>[] = [];

  const send = (dueAt: number) =>
    new Promise<void>((resolve) => {
      const req = http.request(
        { agent, host: target.hostname, port: target.port, path: target.pathname, headers: options.headers },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) errors += 1;
            latencies.push(performance.now() - dueAt);
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end();
    });

  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    const due = Math.min(total, Math.floor(((now - started) / tickMs + 1) * perTick));
    for (; sent < due; sent += 1) inflight.push(send(started + (sent / options.rate) * 1000));
    await new Promise((resolve) => setTimeout(resolve, tickMs));
  }
  await Promise.all(inflight);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pick = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    offeredRate: options.rate,
    achievedRate: (latencies.length - errors) / elapsed,
    errors,
    p50: pick(0.5),
    p99: pick(0.99),
  };
}
