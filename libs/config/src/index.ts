import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses an environment against a zod schema once and freezes the result.
 * Every problem is listed at once so a misconfigured process fails fast with the whole picture.
 */
export function loadConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): Readonly<z.infer<S>> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = issue.path.join('.') || '(root)';
        const unset = issue.code === 'invalid_type' && env[name] === undefined;
        return `${name}: ${unset ? 'is required but not set' : issue.message}`;
      }),
    );
  }
  return Object.freeze(result.data);
}

function isP256(pem: string, parse: (pem: string) => KeyObject): boolean {
  try {
    const key = parse(pem);
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}

/** Reusable pieces of the per-process schemas. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  host: () => z.string().min(1).default('127.0.0.1'),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  nodeEnv: () => z.enum(['development', 'production', 'test']).default('development'),
  url: (protocols: string[]) =>
    z
      .string()
      .min(1)
      .refine((value) => protocols.some((p) => value.startsWith(`${p}://`)), {
        message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
      }),
  /** An http(s) base URL (another service, the public origin), without a trailing slash. */
  httpBase: (fallback: string) =>
    z
      .string()
      .min(1)
      .refine((value) => value.startsWith('http://') || value.startsWith('https://'), {
        message: 'must be a URL starting with http:// or https://',
      })
      .default(fallback)
      .transform((value) => value.replace(/\/+$/, '')),
  /** A PEM value; `\n` escapes are accepted so keys fit in one-line environment variables. */
  pem: () =>
    z
      .string()
      .min(1)
      .transform((value) => value.replace(/\\n/g, '\n'))
      .refine((value) => value.includes('-----BEGIN'), { message: 'must be a PEM-encoded key' }),
  secret: () => z.string().min(32, 'must be at least 32 characters'),
  /** A PEM key on the P-256 curve, the only kind ES256 signs (private) or verifies (public) with. */
  es256Key: (kind: 'private' | 'public') =>
    env.pem().refine((pem) => isP256(pem, kind === 'private' ? createPrivateKey : createPublicKey), {
      message: `must be a PEM-encoded EC P-256 ${kind} key (ES256)`,
    }),
  seconds: (fallback: number) => z.coerce.number().int().positive().default(fallback),
  /** A positive whole number: a limit, a size, a timeout in milliseconds. */
  count: (fallback: number) => z.coerce.number().int().positive().default(fallback),
};

/**
 * What every service's configuration reads, spread into its schema: where it listens (`port` by
 * default), its database and broker, the internal secret and the log level.
 */
export function serviceEnv(port: number) {
  return {
    PORT: env.port(port),
    HOST: env.host(),
    DATABASE_URL: env.url(['postgres', 'postgresql']),
    AMQP_URL: env.url(['amqp', 'amqps']),
    INTERNAL_JWT_SECRET: env.secret(),
    LOG_LEVEL: env.logLevel(),
  };
}

/** A process's `load...Config`: parses `source` (the environment by default) against `schema`. */
export function configLoader<S extends z.ZodType>(schema: S) {
  return (source: Record<string, string | undefined> = process.env): Readonly<z.infer<S>> =>
    loadConfig(schema, source);
}

const migrationFields = z.object({
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  LOG_LEVEL: env.logLevel(),
});

/** `npm run migrate` of any service needs the database only, not its secrets. */
export const loadMigrationConfig = configLoader(migrationFields);
