/** One sample of a scrape: `name{labels} value`. */
export type MetricSample = { name: string; labels: Record<string, string>; value: number };

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * Parses the Prometheus text format (0.0.4) into samples; throws on any line that is neither a
 * comment nor a sample, so a malformed exposition fails the test that reads it.
 */
export function parsePrometheusText(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) {
      labels[name!] = value!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels` (0 when there is none). */
export function sampleValue(
  samples: MetricSample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** `GET <baseUrl>/metrics`, checked to be the Prometheus text format, parsed. */
export async function scrapeMetrics(
  baseUrl: string,
  headers: Record<string, string> = {},
): Promise<MetricSample[]> {
  const response = await fetch(`${baseUrl}/metrics`, { headers });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}: ${text.slice(0, 200)}`);
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.startsWith('text/plain; version=0.0.4')) {
    throw new Error(`/metrics answered with Content-Type ${contentType}`);
  }
  return parsePrometheusText(text);
}
