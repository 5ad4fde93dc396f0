/** Access tokens: ES256 JWTs signed by identity-service, verified by the gateway. */
export const ACCESS_TOKEN_ALGORITHM = 'ES256';
export const ACCESS_TOKEN_ISSUER = 'tolk-identity';
export const ACCESS_TOKEN_AUDIENCE = 'tolk-api';

/** The services behind the gateway and the port each listens on by default. */
export const SERVICE_PORTS = {
  identity: 8081,
  project: 8082,
  source: 8083,
  locale: 8084,
  token: 8085,
  byok: 8086,
} as const;
export type ServiceName = keyof typeof SERVICE_PORTS;
export const GATEWAY_PORT = 8080;
/** The gateway's GET /metrics, apart from its public port (services serve theirs on their own). */
export const GATEWAY_METRICS_PORT = 9091;

/** Project API tokens (DESIGN §2) start with this prefix, which tells them apart from access tokens. */
export const PROJECT_TOKEN_PREFIX = 'tolk_';
