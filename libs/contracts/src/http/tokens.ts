/**
 * token-service's HTTP API (API Tokens): creating, listing and revoking project API tokens.
 * token-service validates with these schemas; the gateway documents them.
 */
import { z } from 'zod';
import { TOKEN_PREFIX_LENGTH } from '../project-tokens.js';

export const MAX_LABEL_LENGTH = 200;
export const TOKEN_PERMISSIONS = ['read', 'read_write'] as const;

// C0 controls, DEL and C1 controls: a label is one line of text in a list.
const CONTROL_CHARACTER = /\p{Cc}/u;
// A lone UTF-16 surrogate: not text, and it would not survive as UTF-8.
const LONE_SURROGATE = /\p{Cs}/u;

// ---- requests ----

/**
 * Surrounding whitespace is dropped; what remains is 1 to 200 characters (code points) of one
 * line of text. Labels need not be unique.
 */
const label = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  // Piped, so that a value that is no string at all gets that one message only.
  .pipe(
    z
      .string()
      .trim()
      .min(1, { error: 'must not be empty', abort: true })
      .refine((value) => [...value].length <= MAX_LABEL_LENGTH, {
        error: `must be at most ${MAX_LABEL_LENGTH} characters`,
        abort: true,
      })
      .refine((value) => !CONTROL_CHARACTER.test(value), {
        error: 'must not contain control characters (line breaks, tabs, NUL, ...)',
        abort: true,
      })
      .refine((value) => !LONE_SURROGATE.test(value), { error: 'must be valid Unicode text' }),
  )
  // What the pipe checks after trimming, for readers of the document: zod describes its input only.
  .meta({
    minLength: 1,
    description: `One line of text, 1 to ${MAX_LABEL_LENGTH} characters once surrounding whitespace is trimmed`,
  });

const permissions = z.enum(TOKEN_PERMISSIONS, {
  error: (issue) =>
    issue.input === undefined ? 'is required' : `must be one of ${TOKEN_PERMISSIONS.join(', ')}`,
});

/** `POST .../tokens`. Unknown fields are ignored; anything but a JSON object is named as such. */
export const createTokenRequestSchema = z.object({ label, permissions }, { error: 'must be a JSON object' });

// ---- responses ----

const epochMillis = z.number().int().nonnegative().meta({ description: 'Epoch milliseconds' });

/** The spec's ApiToken: all six fields, `tokenPrefix` and `lastUsedAt` nullable. */
export const apiTokenSchema = z.strictObject({
  tokenId: z.string().min(1),
  tokenPrefix: z
    .string()
    .length(TOKEN_PREFIX_LENGTH)
    .nullable()
    .meta({ description: 'The first 10 characters of the token; only in the list view' }),
  label: z.string().min(1),
  permissions: z.enum(TOKEN_PERMISSIONS),
  lastUsedAt: epochMillis.nullable().meta({ description: 'Epoch milliseconds; null when never used' }),
  createdAt: epochMillis,
});

/** The spec's CreateTokenResponse: an ApiToken (no prefix, never used yet) and the token, once. */
export const createTokenResponseSchema = apiTokenSchema.extend({
  tokenPrefix: z.null(),
  lastUsedAt: z.null(),
  token: z.string().min(1).meta({
    description: 'The full token (`tolk_…`), shown only in this answer; it cannot be retrieved again',
  }),
});

/**
 * Who created a token: the member who owns it. Removing that member from the project (or the
 * member leaving, or deleting their account) revokes it.
 */
const createdBy = z
  .strictObject({ userId: z.string().min(1) })
  .meta({ description: 'The member who created the token; removing them from the project revokes it' });

/**
 * `GET .../tokens`: in the list view the prefix is always there, and each token names its creator
 * (beyond the spec's six fields, which stay as they are).
 */
export const tokenListResponseSchema = z.strictObject({
  tokens: z.array(apiTokenSchema.extend({ tokenPrefix: z.string().length(TOKEN_PREFIX_LENGTH), createdBy })),
});

export type CreateTokenResponse = z.infer<typeof createTokenResponseSchema>;
export type TokenListResponse = z.infer<typeof tokenListResponseSchema>;
