import { z } from 'zod';
import { tokenIntrospectionResponseSchema } from '@tolk/contracts';

// ---- requests and responses: in @tolk/contracts, so the gateway's OpenAPI document is generated from them ----

export {
  MAX_LABEL_LENGTH,
  TOKEN_PERMISSIONS,
  apiTokenSchema,
  createTokenRequestSchema,
  createTokenResponseSchema,
  tokenListResponseSchema,
  type CreateTokenResponse,
  type TokenListResponse,
} from '@tolk/contracts';

/** `POST /internal/tokens/introspect`, exactly the contract's fields. */
export const introspectionResponseSchema = z.strictObject(tokenIntrospectionResponseSchema.shape);

export type IntrospectionResponse = z.infer<typeof introspectionResponseSchema>;
