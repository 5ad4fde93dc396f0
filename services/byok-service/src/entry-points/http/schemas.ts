import { byokProviderSchema, type AiProvider } from '@tolk/contracts';
import { parseInput } from '@tolk/errors';

// ---- requests and responses: in @tolk/contracts, so the gateway's OpenAPI document is generated from them ----

export {
  MAX_API_KEY_LENGTH,
  MIN_API_KEY_LENGTH,
  keyListResponseSchema,
  keyReadingResponseSchema,
  keyStatusSchema,
  storeKeyRequestSchema,
  storedKeyResponseSchema,
  type KeyListResponse,
  type KeyReadingResponse,
  type StoredKeyResponse,
} from '@tolk/contracts';

/** The `{provider}` path segment: exactly one of the providers, in lower case. */
export function parseProvider(value: unknown): AiProvider {
  return parseInput(byokProviderSchema, value, 'path.provider');
}
