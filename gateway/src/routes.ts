import type { ServiceName } from '@tolk/contracts';

/**
 * Who may call a route. `public`: no token; `user`: a user's access token — and a project API
 * token for the methods listed in the route's `tokens`.
 */
export type Access = 'public' | 'user';

/** What a project API token needs for a method: `read`, or `read_write` to upload. */
export type TokenPermission = 'read' | 'read_write';

/** Routes that need brute-force protection beyond the general limit. */
export type AuthAttempt = 'signup' | 'login';

/**
 * `project`: the path names a project (`:projectId`) and only its members get through; anyone
 * else gets 404 from the gateway, so the service never sees them.
 */
export type Scope = 'project';

export type GatewayRoute = {
  /** An express 5 (path-to-regexp 8) pattern; the service serves the same path. */
  path: string;
  service: ServiceName;
  access: Access;
  scope?: Scope;
  authAttempt?: AuthAttempt;
  /**
   * The methods a project API token may use here (DESIGN §2, §9): reads of its own project with
   * `read`, source and translation uploads with `read_write`. Any other method, and every route
   * without this, refuses a project token with 403 before any service sees the request.
   */
  tokens?: Partial<Record<'GET' | 'PUT' | 'POST', TokenPermission>>;
  /**
   * Every answer is `Cache-Control: no-store`, the gateway's own refusals (401, 403, 429, 503, ...)
   * included, not only the service's: for routes whose answers hold secrets (DESIGN §7).
   */
  noStore?: true;
};

const READ: GatewayRoute['tokens'] = { GET: 'read' };
const READ_AND_UPLOAD: GatewayRoute['tokens'] = { GET: 'read', PUT: 'read_write' };

/** Every route the gateway exposes. Methods are the service's business: it answers 405 itself. */
export const ROUTES: readonly GatewayRoute[] = [
  { path: '/v1/auth/signup', service: 'identity', access: 'public', authAttempt: 'signup' },
  { path: '/v1/auth/login', service: 'identity', access: 'public', authAttempt: 'login' },
  { path: '/v1/auth/refresh', service: 'identity', access: 'public' },
  { path: '/v1/auth/logout', service: 'identity', access: 'public' },
  { path: '/v1/auth/device', service: 'identity', access: 'public' },
  { path: '/v1/auth/device/token', service: 'identity', access: 'public' },
  { path: '/v1/auth/device/approve', service: 'identity', access: 'user' },
  { path: '/v1/auth/device/deny', service: 'identity', access: 'user' },
  { path: '/v1/user/me', service: 'identity', access: 'user' },
  { path: '/v1/user/byok{/*rest}', service: 'byok', access: 'user', noStore: true },
  { path: '/v1/projects', service: 'project', access: 'user' },
  { path: '/v1/projects/:projectId', service: 'project', access: 'user', scope: 'project', tokens: READ },
  { path: '/v1/projects/:projectId/members{/*rest}', service: 'project', access: 'user', scope: 'project' },
  {
    path: '/v1/projects/:projectId/glossary{/*rest}',
    service: 'project',
    access: 'user',
    scope: 'project',
    tokens: READ_AND_UPLOAD,
  },
  {
    path: '/v1/projects/:projectId/source{/*rest}',
    service: 'source',
    access: 'user',
    scope: 'project',
    tokens: READ_AND_UPLOAD,
  },
  // Translation memory lookups are reads sent with POST (the texts do not fit in a query string).
  {
    path: '/v1/projects/:projectId/locales/:locale/memory',
    service: 'locale',
    access: 'user',
    scope: 'project',
    tokens: { POST: 'read' },
  },
  {
    path: '/v1/projects/:projectId/locales{/*rest}',
    service: 'locale',
    access: 'user',
    scope: 'project',
    tokens: READ_AND_UPLOAD,
  },
  // The translation browser: every key with its source and each locale's value and state.
  { path: '/v1/projects/:projectId/keys', service: 'locale', access: 'user', scope: 'project', tokens: READ },
  { path: '/v1/projects/:projectId/tokens{/*rest}', service: 'token', access: 'user', scope: 'project' },
];
