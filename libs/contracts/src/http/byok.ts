/**
 * byok-service's HTTP API (CLI): users' AI-provider keys. byok-service validates with these
 * schemas; the gateway documents them.
 */
import { z } from 'zod';
import { AI_PROVIDERS } from '../providers.js';
import { epochMillis } from './fields.js';

export const MIN_API_KEY_LENGTH = 8;
export const MAX_API_KEY_LENGTH = 4096;

// C0 controls, DEL and C1 controls: no provider key holds one, and none may go in an HTTP header.
const CONTROL_CHARACTER = /\p{Cc}/u;
// A lone UTF-16 surrogate: it would not survive encryption as UTF-8 unchanged.
const LONE_SURROGATE = /\p{Cs}/u;

// ---- requests ----

/** The `{provider}` path segment: exactly one of the providers, in lower case. */
export const byokProviderSchema = z.enum(AI_PROVIDERS, {
  error: `must be one of ${AI_PROVIDERS.join(', ')}`,
});

/**
 * Surrounding whitespace (the line break a paste brings along) is dropped; what remains is the
 * key, as given. At least 8 characters, so the 4-character hint never shows a whole key. No
 * message ever repeats the value.
 */
const apiKey = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  // Piped, so that a value that is no string at all gets that one message only.
  .pipe(
    z
      .string()
      .trim()
      .min(1, { error: 'must not be empty', abort: true })
      .min(MIN_API_KEY_LENGTH, { error: `must be at least ${MIN_API_KEY_LENGTH} characters`, abort: true })
      .max(MAX_API_KEY_LENGTH, { error: `must be at most ${MAX_API_KEY_LENGTH} characters`, abort: true })
      .refine((value) => !CONTROL_CHARACTER.test(value), {
        error: 'must not contain control characters (line breaks, tabs, NUL, ...)',
        abort: true,
      })
      .refine((value) => !LONE_SURROGATE.test(value), { error: 'must be valid Unicode text' }),
  )
  // What the pipe checks after trimming, for readers of the document: zod describes its input only.
  .meta({
    minLength: MIN_API_KEY_LENGTH,
    description: `The provider's key, ${MIN_API_KEY_LENGTH} to ${MAX_API_KEY_LENGTH} characters once surrounding whitespace is trimmed`,
  });

/** Unknown fields are ignored; anything but a JSON object is named as such. */
export const storeKeyRequestSchema = z.object({ apiKey }, { error: 'must be a JSON object' });

// ---- responses ----

const providerResponse = z.enum(AI_PROVIDERS);

/** `GET /v1/user/byok/{provider}`, exactly the spec's BYOK key status. */
export const keyReadingResponseSchema = z.strictObject({
  hasKey: z.boolean(),
  apiKey: z.string().meta({ description: 'The decrypted key; "" when hasKey is false' }),
});

export const storedKeyResponseSchema = z.strictObject({
  provider: providerResponse,
  hasKey: z.literal(true),
  hint: z.string().meta({ description: 'The last 4 characters of the key' }),
  updatedAt: epochMillis(),
});

export const keyStatusSchema = z.strictObject({
  provider: providerResponse,
  hasKey: z.boolean(),
  hint: z.string().nullable(),
  updatedAt: epochMillis().nullable(),
});

export const keyListResponseSchema = z.strictObject({ keys: z.array(keyStatusSchema) });

export type KeyReadingResponse = z.infer<typeof keyReadingResponseSchema>;
export type StoredKeyResponse = z.infer<typeof storedKeyResponseSchema>;
export type KeyListResponse = z.infer<typeof keyListResponseSchema>;
