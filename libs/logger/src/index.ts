import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger } from 'pino';
export type { Counter, Gauge, Histogram } from 'prom-client';
export * from './metrics.js';

type RequestContext = { requestId: string };
const requestContext = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` with a request id that every log line and published event inside it carries. */
export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return requestContext.run({ requestId }, fn);
}

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/** Paths whose values must never reach a log line. */
export const REDACT_PATHS = [
  'password',
  'newPassword',
  'token',
  'accessToken',
  'refreshToken',
  'deviceCode',
  'apiKey',
  'key',
  'secret',
  '*.password',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.deviceCode',
  '*.apiKey',
  '*.secret',
  // A request's body as it arrived (libs/http keeps it beside the parsed body).
  'rawBody',
  'req.rawBody',
  'req.body',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-tolk-principal"]',
  'req.headers["x-tolk-internal-caller"]',
  'headers.authorization',
  'headers["x-tolk-principal"]',
  'headers["x-tolk-internal-caller"]',
];

export function createLogger(
  options: { name: string; level?: string },
  destination?: DestinationStream,
): Logger {
  return pino(
    {
      name: options.name,
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      mixin() {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
      base: { service: options.name },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
