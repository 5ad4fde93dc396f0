// The slice of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  type Histogram = { average: number; p50: number; p99: number };
  export type Result = {
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  export default function autocannon(options: {
    url: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    overallRate?: number;
  }): Promise<Result>;
}
