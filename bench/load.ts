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
