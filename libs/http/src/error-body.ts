/**
 * How the error vocabulary (@tolk/errors) answers over HTTP: the status of each code (DESIGN §3)
 * and the spec's body, `{"error":{"code","message"}}`, nothing else.
 */
/** HTTP status of every error code the system answers with. */
export const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  INVALID_JSON: 400,
  VALIDATION_ERROR: 400,
  AUTHORIZATION_PENDING: 400,
  SLOW_DOWN: 400,
  EXPIRED_TOKEN: 400,
  ACCESS_DENIED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  EXPECTATION_FAILED: 417,
  RATE_LIMITED: 429,
  REQUEST_HEADER_FIELDS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
};

export function errorBody(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}
