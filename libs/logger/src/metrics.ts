import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from 'pino';

/**
 * The one Prometheus registry of the process. The apps, the bus and the outbox relay are built
 * apart (start.ts) yet report together, so their metrics meet here rather than in a registry
 * handed from one to the other; `GET /metrics` on any app of the process renders all of it.
 * It lives beside the logger because every lib already depends on this package: what a process
 * says about itself, as lines or as numbers, comes from one place.
 */
export const metricsRegistry = new Registry();

type MetricConfig<L extends string> = { name: string; help: string; labelNames?: readonly L[] };

/**
 * Each define* returns the metric registered under the name, registering it on first use, so a
 * module evaluated twice in one process (as tests can) shares the metric instead of throwing.
 */
export function defineCounter<L extends string>(config: MetricConfig<L>): Counter<L> {
  const existing = metricsRegistry.getSingleMetric(config.name);
  if (existing) return existing as Counter<L>;
  return new Counter({ ...config, labelNames: config.labelNames ?? [], registers: [metricsRegistry] });
}

export function defineHistogram<L extends string>(
  config: MetricConfig<L> & { buckets: number[] },
): Histogram<L> {
  const existing = metricsRegistry.getSingleMetric(config.name);
  if (existing) return existing as Histogram<L>;
  return new Histogram({ ...config, labelNames: config.labelNames ?? [], registers: [metricsRegistry] });
}

/** `collect` runs on every scrape (it may be async) and sets the gauge's current values. */
export function defineGauge<L extends string>(
  config: MetricConfig<L> & { collect?: (gauge: Gauge<L>) => void | Promise<void> },
): Gauge<L> {
  const existing = metricsRegistry.getSingleMetric(config.name);
  if (existing) return existing as Gauge<L>;
  const { collect, ...rest } = config;
  return new Gauge({
    ...rest,
    labelNames: rest.labelNames ?? [],
    registers: [metricsRegistry],
    ...(collect
      ? {
          collect(this: Gauge<L>) {
            return collect(this);
          },
        }
      : {}),
  });
}

let processMetricsService: string | undefined;

/**
 * Node's own numbers (CPU, memory, event loop lag, GC, handles) labelled with the service, once
 * per process: the first app that serves /metrics names it.
 */
export function collectProcessMetrics(service: string): void {
  if (processMetricsService !== undefined) return;
  processMetricsService = service;
  collectDefaultMetrics({ register: metricsRegistry, labels: { service } });
}

/** The name a process's log lines carry as `service` (createLogger's `name`), for its metrics too. */
export function serviceNameOf(logger: Logger): string {
  const service: unknown = logger.bindings()['service'];
  return typeof service === 'string' && service ? service : 'unknown';
}

/** The registry in the Prometheus text format, with its content type. */
export async function renderMetrics(): Promise<{ contentType: string; text: string }> {
  return { contentType: metricsRegistry.contentType, text: await metricsRegistry.metrics() };
}
