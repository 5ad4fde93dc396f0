/**
 * The request and response schemas of identity-service's HTTP API live in @tolk/contracts, so the
 * gateway's OpenAPI document is generated from the very schemas this service validates with.
 */
export {
  MAX_LOOKUP_USER_IDS,
  deleteAccountRequestSchema,
  deviceAuthorizationRequestSchema,
  deviceAuthorizationResponseSchema,
  deviceTokenRequestSchema,
  directoryUserResponseSchema,
  loginRequestSchema,
  refreshTokenRequestSchema,
  sessionResponseSchema,
  signupRequestSchema,
  userByEmailQuerySchema,
  userCodeRequestSchema,
  userResponseSchema,
  usersLookupRequestSchema,
  usersLookupResponseSchema,
  type DeviceAuthorizationResponse,
  type DirectoryUserResponse,
  type SessionResponse,
  type UserResponse,
} from '@tolk/contracts';
