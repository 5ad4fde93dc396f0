import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { z } from 'zod';
import type { EventType } from './events.js';
import { PROJECT_TOKEN_PREFIX } from './auth.js';

/**
 * Project API tokens (DESIGN §2, §7): `tolk_` + 30 base62 characters of randomness (178 bits) +
 * 6 base62 characters of the CRC32 of those 30, so a secret scanner — and the gateway, before any
 * lookup — can tell a real token from a typo or a random string offline. Only the SHA-256 of the
 * whole token is ever stored.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
export const PROJECT_TOKEN_LENGTH = PROJECT_TOKEN_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const SHAPE = new RegExp(`^${PROJECT_TOKEN_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);
/** How much of a token a list shows (the spec's `tokenPrefix`). */
export const TOKEN_PREFIX_LENGTH = 10;

function base62(value: number, length: number): string {
  let text = '';
  let rest = value;
  for (let i = 0; i < length; i++) {
    text = ALPHABET[rest % 62]! + text;
    rest = Math.floor(rest / 62);
  }
  return text;
}

function checksumOf(random: string): string {
  return base62(crc32(random), CHECKSUM_LENGTH);
}

/** A new token value. Unbiased: bytes ≥ 248 are drawn again rather than folded onto the alphabet. */
export function generateProjectToken(): string {
  let random = '';
  while (random.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(RANDOM_LENGTH * 2)) {
      if (byte < 248 && random.length < RANDOM_LENGTH) random += ALPHABET[byte % 62];
    }
  }
  return `${PROJECT_TOKEN_PREFIX}${random}${checksumOf(random)}`;
}

/** The token's shape and checksum, checked without any lookup. */
export function isWellFormedProjectToken(token: string): boolean {
  if (!SHAPE.test(token)) return false;
  const body = token.slice(PROJECT_TOKEN_PREFIX.length);
  return checksumOf(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH);
}

/** What is stored and looked up instead of the token: SHA-256 of the whole value, hex. */
export function hashProjectToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** token-service's internal API for the gateway. */
export const tokenIntrospectionRequestSchema = z.object({ tokenHash: z.string().regex(/^[0-9a-f]{64}$/) });
/** 200 for a live token; 404 for an unknown or revoked one. */
export const tokenIntrospectionResponseSchema = z.object({
  tokenId: z.string().min(1),
  projectId: z.string().min(1),
  permissions: z.enum(['read', 'read_write']),
});
/** Uses the gateway saw, reported in batches; token-service keeps `lastUsedAt` from them. */
export const tokenUsageReportSchema = z.object({
  uses: z.array(z.object({ tokenId: z.string().min(1), at: z.number().int().nonnegative() })).max(10_000),
});
export const TOKEN_INTROSPECTION_PATH = '/internal/tokens/introspect';
/**
 * `GET` on token-service: the token with this id as `tokenIntrospectionResponseSchema` says while
 * it is live, 404 once revoked (or unknown). What a service asks before it commits a token's write.
 */
export function liveTokenPath(tokenId: string): string {
  return `/internal/tokens/${encodeURIComponent(tokenId)}`;
}
export const TOKEN_USAGE_PATH = '/internal/tokens/usage';

/** The `data` of the events token-service publishes. */
export const tokenEventDataSchemas = {
  /** A token stops working: revoked by a user, or its project deleted. The gateway evicts `tokenHash`. */
  TokenRevoked: z.object({
    tokenId: z.string().min(1),
    projectId: z.string().min(1),
    tokenHash: z.string().regex(/^[0-9a-f]{64}$/),
  }),
} satisfies Partial<Record<EventType, z.ZodType>>;

const TOKEN_IN_TEXT = new RegExp(`${PROJECT_TOKEN_PREFIX}[0-9A-Za-z]+`, 'g');

/**
 * The text (a URL, a path) with anything shaped like a project API token replaced by
 * `tolk_[redacted]`: a token pasted where an id belongs must not reach a log line. No token id,
 * project id or user id starts so.
 */
export function redactProjectTokens(text: string): string {
  return text.includes(PROJECT_TOKEN_PREFIX)
    ? text.replace(TOKEN_IN_TEXT, `${PROJECT_TOKEN_PREFIX}[redacted]`)
    : text;
}
