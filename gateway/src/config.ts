import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { env, loadConfig } from '@tolk/config';
import { GATEWAY_METRICS_PORT, GATEWAY_PORT, SERVICE_PORTS, type ServiceName } from '@tolk/contracts';

/** The dashboard's build in this checkout (gateway/src or gateway/dist -> dashboard/dist). */
export const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL('../../dashboard/dist', import.meta.url));

const SERVICE_NAMES = Object.keys(SERVICE_PORTS) as ServiceName[];
const MIB = 1024 * 1024;

/** An unset variable and an empty one (`REDIS_URL=` in a compose file) mean the same. */
function optional<S extends z.ZodType>(schema: S) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
}

const serviceUrl = env.url(['http', 'https']).transform((value) => value.replace(/\/+$/, ''));

/** `SERVICE_URLS` as a JSON object (`{"identity":"http://..."}`) or as `identity=http://...,source=...`. */
const serviceUrlsSchema = z
  .string()
  .transform((value, ctx): unknown => {
    const text = value.trim();
    let parsed: unknown;
    if (text.startsWith('{')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
        return z.NEVER;
      }
    } else {
      const entries: [string, string][] = [];
      for (const pair of text.split(',').filter((part) => part.trim() !== '')) {
        const at = pair.indexOf('=');
        if (at <= 0) {
          ctx.addIssue({ code: 'custom', message: `"${pair.trim()}" is not name=url` });
          return z.NEVER;
        }
        entries.push([pair.slice(0, at).trim(), pair.slice(at + 1).trim()]);
      }
      parsed = Object.fromEntries(entries);
    }
    const unknown = Object.keys(parsed ?? {}).filter((name) => !SERVICE_NAMES.includes(name as ServiceName));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown service ${unknown.join(', ')}; the services are ${SERVICE_NAMES.join(', ')}`,
      });
      return z.NEVER;
    }
    return parsed;
  })
  .pipe(z.partialRecord(z.enum(SERVICE_NAMES), serviceUrl));

/** `TRUST_PROXY` as express understands it: a boolean, a hop count, or addresses/subnets. */
const trustProxySchema = z
  .string()
  .default('false')
  .transform((value): boolean | number | string => {
    const text = value.trim().toLowerCase();
    if (text === '' || text === 'false') return false;
    if (text === 'true') return true;
    if (/^\d+$/.test(text)) return Number(text);
    return value.trim();
  });

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const configSchema = z
  .object({
    PORT: env.port(GATEWAY_PORT),
    HOST: env.host(),
    LOG_LEVEL: env.logLevel(),
    JWT_PUBLIC_KEY: env.es256Key('public'),
    INTERNAL_JWT_SECRET: env.secret(),
    REDIS_URL: optional(env.url(['redis', 'rediss'])),
    REDIS_COMMAND_TIMEOUT_MS: count(250),
    // Cache evictions: memberships (ProjectMembershipChanged, ProjectDeleted), tokens (TokenRevoked)
    // and deleted accounts (UserDeleted).
    AMQP_URL: optional(env.url(['amqp', 'amqps'])),
    SERVICE_URLS: optional(serviceUrlsSchema),
    IDENTITY_SERVICE_URL: optional(serviceUrl),
    PROJECT_SERVICE_URL: optional(serviceUrl),
    SOURCE_SERVICE_URL: optional(serviceUrl),
    LOCALE_SERVICE_URL: optional(serviceUrl),
    TOKEN_SERVICE_URL: optional(serviceUrl),
    BYOK_SERVICE_URL: optional(serviceUrl),
    // The source file limit (10 MiB) plus room for JSON framing around it.
    MAX_BODY_BYTES: count(10 * MIB + 64 * 1024),
    // Every request body is read whole by the gateway before a service sees it (a slow client
    // holds no connection to a service); one not complete in time is answered 408 and its
    // connection closed. BODY_TIMEOUT_MS bounds the whole body: 2 minutes is 10 MiB at about
    // 700 kbit/s, a slow but honest uplink. Past BODY_MIN_RATE_GRACE_MS, the body must also
    // have averaged BODY_MIN_BYTES_PER_SECOND since it began (0 turns that off), so a client
    // trickling a byte now and then is cut after seconds, not minutes.
    BODY_TIMEOUT_MS: count(120_000),
    BODY_MIN_BYTES_PER_SECOND: z.coerce.number().int().nonnegative().default(1024),
    BODY_MIN_RATE_GRACE_MS: count(5000),
    // Requests with a body in progress at once per principal (per client address before
    // authentication) in this gateway process; more is 429 RATE_LIMITED with Retry-After.
    MAX_UPLOADS_PER_PRINCIPAL: count(10),
    UPSTREAM_TIMEOUT_MS: count(30_000),
    UPSTREAM_MAX_SOCKETS: count(512),
    TRUST_PROXY: trustProxySchema,
    ACCESS_TOKEN_CACHE_SIZE: z.coerce.number().int().nonnegative().default(10_000),
    MEMBERSHIP_LOOKUP_TIMEOUT_MS: count(5000),
    MEMBERSHIP_CACHE_TTL_SECONDS: count(60),
    MEMBERSHIP_CACHE_NEGATIVE_TTL_SECONDS: count(10),
    MEMBERSHIP_CACHE_KEY_PREFIX: z.string().min(1).default('tolk:gateway:membership'),
    MEMBERSHIP_EVENTS_QUEUE: z.string().min(1).default('gateway.membership-cache'),
    // Project API tokens (token-service): in-process and Redis caches of its answers, revocations.
    TOKEN_LOOKUP_TIMEOUT_MS: count(5000),
    TOKEN_CACHE_TTL_SECONDS: count(30),
    TOKEN_LOCAL_CACHE_TTL_MS: count(5000),
    TOKEN_LOCAL_CACHE_SIZE: count(10_000),
    TOKEN_CACHE_KEY_PREFIX: z.string().min(1).default('tolk:gateway:tokens'),
    TOKEN_EVENTS_QUEUE: z.string().min(1).default('gateway.token-revocations'),
    TOKEN_USAGE_FLUSH_MS: count(1000),
    // Deleted accounts (UserDeleted): their access tokens are refused this long after the
    // deletion, which must be at least identity-service's ACCESS_TOKEN_TTL_SECONDS.
    ACCESS_TOKEN_MAX_TTL_SECONDS: count(15 * 60),
    USER_EVENTS_QUEUE: z.string().min(1).default('gateway.user-deletions'),
    RATE_LIMIT_KEY_PREFIX: z.string().min(1).default('tolk:gateway'),
    RATE_LIMIT_AUTH_PER_IP: count(20),
    RATE_LIMIT_AUTH_PER_IP_WINDOW_SECONDS: count(60),
    // Requests whose token is refused (401), per client address; past it, 429 for its unproven tokens.
    RATE_LIMIT_AUTH_FAILURES_PER_IP: count(60),
    RATE_LIMIT_AUTH_FAILURES_WINDOW_SECONDS: count(60),
    RATE_LIMIT_LOGIN_FAILURES_PER_EMAIL: count(10),
    RATE_LIMIT_LOGIN_FAILURES_WINDOW_SECONDS: count(15 * 60),
    RATE_LIMIT_PER_USER: count(1200),
    RATE_LIMIT_PER_IP: count(600),
    RATE_LIMIT_WINDOW_SECONDS: count(60),
    // The gateway's metrics are served on a port of their own, for the scraper (0: not served).
    METRICS_PORT: env.port(GATEWAY_METRICS_PORT),
    // The gateway's port is public and does not answer GET /metrics; with this set, it answers
    // it too, to `Authorization: Bearer <METRICS_TOKEN>` only.
    METRICS_TOKEN: optional(z.string().min(16, 'must be at least 16 characters')),
    // The web dashboard's build (dashboard/dist), served at `/`; absent: `/` says how to build it.
    DASHBOARD_DIR: optional(z.string().transform((value) => path.resolve(value))).transform(
      (value) => value ?? DEFAULT_DASHBOARD_DIR,
    ),
  })
  .transform((config) => {
    // One variable per service wins over the same service in SERVICE_URLS.
    const upstreams: Partial<Record<ServiceName, string>> = { ...config.SERVICE_URLS };
    const single: Record<ServiceName, string | undefined> = {
      identity: config.IDENTITY_SERVICE_URL,
      project: config.PROJECT_SERVICE_URL,
      source: config.SOURCE_SERVICE_URL,
      locale: config.LOCALE_SERVICE_URL,
      token: config.TOKEN_SERVICE_URL,
      byok: config.BYOK_SERVICE_URL,
    };
    for (const name of SERVICE_NAMES) {
      const url = single[name];
      if (url) upstreams[name] = url;
    }
    return { ...config, UPSTREAMS: upstreams };
  });

export type GatewayConfig = z.infer<typeof configSchema>;

/** The whole configuration of the gateway, parsed once and frozen; every problem listed at once. */
export function loadGatewayConfig(
  source: Record<string, string | undefined> = process.env,
): Readonly<GatewayConfig> {
  return loadConfig(configSchema, source);
}
