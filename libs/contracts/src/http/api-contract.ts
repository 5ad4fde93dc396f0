/**
 * The shape of what the public API declares of itself, beside the zod schemas of its bodies and
 * answers: each service's routes (who may call them, through the gateway) and operations (what
 * the OpenAPI document says of each: summary, parameters, body and answer schemas, statuses).
 * The gateway routes by the routes and publishes the operations as GET /v1/openapi.json; the
 * dashboard's types are generated from that document.
 */
import type { z } from 'zod';
import type { ServiceName } from '../auth.js';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

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

/** A route of the gateway: the paths it sends to one service, and who may call them. */
export type ApiRoute = {
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

/** Project API tokens may read. */
export const READ_TOKENS: ApiRoute['tokens'] = { GET: 'read' };
/** Project API tokens may read, and upload with `read_write`. */
export const READ_AND_UPLOAD_TOKENS: ApiRoute['tokens'] = { GET: 'read', PUT: 'read_write' };

export const API_TAGS = [
  { name: 'Auth', description: 'Accounts, sessions and the command-line (device) login' },
  { name: 'User', description: 'The signed-in user' },
  { name: 'Projects', description: 'Projects, their members and settings (the CLI configuration)' },
  {
    name: 'Source Files',
    description: 'The source locale file: versions, diffs and what is pending translation',
  },
  { name: 'Locales', description: 'Target locales, their status and translations' },
  { name: 'API Tokens', description: 'Project API tokens for CI/CD (`tolk_…`)' },
  { name: 'CLI', description: "Bring-your-own-key: the user's AI-provider keys for the command-line tool" },
  { name: 'Meta', description: 'This description of the API' },
] as const;
export type ApiTag = (typeof API_TAGS)[number]['name'];

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 412 | 413 | 415 | 429 | 500 | 503 | 504;
export type HeaderName = 'X-Request-Id' | 'Retry-After' | 'ETag';

export type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
};

/**
 * A body or answer: a zod schema the service validates with (named in its API's `requestSchemas`
 * or `responseSchemas`), or the name of a schema written as JSON Schema (`LOCALE_FILE_SCHEMAS`).
 */
export type BodySchema = z.ZodType | 'LocaleFile' | 'OpenApiDocument';

export type ApiOperation = {
  method: HttpMethod;
  /** The OpenAPI path template (`{projectId}`), of a route of its API unless `servedBy` says otherwise. */
  path: string;
  operationId: string;
  tag: ApiTag;
  summary: string;
  description?: string;
  /** Query and header parameters; path parameters come from the template. */
  parameters?: Parameter[];
  requestBody?: { schema: BodySchema; required: boolean; description?: string };
  success: {
    status: 200 | 201 | 204;
    description: string;
    schema?: BodySchema;
    headers?: HeaderName[];
  };
  /** Errors particular to this operation, with what they mean here. */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** Answered by the gateway itself rather than a route: public, not rate-limited. */
  servedBy?: 'gateway';
};

/** How a service's API names an operation: its method and path template, `GET /v1/projects/{projectId}`. */
export type OperationKey = `${Uppercase<HttpMethod>} /${string}`;

/** An operation as its service's API declares it, under its `OperationKey`. */
export type DeclaredOperation = Omit<ApiOperation, 'method' | 'path' | 'tag' | 'servedBy'> & {
  /** When not the tag of its API. */
  tag?: ApiTag;
};

/** One service's part of the public API. */
export type ServiceApi = {
  /** The tag of its operations, unless one says otherwise. */
  tag: ApiTag;
  /** Request bodies by the name the document gives them: validated by the service with these very schemas. */
  requestSchemas: Record<string, z.ZodType>;
  /** Answers by name (also those only found inside others): the service's tests hold its answers to them. */
  responseSchemas: Record<string, z.ZodType>;
  routes: ApiRoute[];
  operations: { [key: OperationKey]: DeclaredOperation };
};

/** The operations of a service's API, each with its method, path and tag. */
export function operationsOf(api: ServiceApi): ApiOperation[] {
  return Object.entries(api.operations).map(([key, declared]) => {
    const [method, path] = key.split(' ') as [Uppercase<HttpMethod>, string];
    return { method: method.toLowerCase() as HttpMethod, path, ...declared, tag: declared.tag ?? api.tag };
  });
}
