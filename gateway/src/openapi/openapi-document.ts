import type { z } from 'zod';
import {
  API_TAGS,
  LOCALE_FILE_SCHEMAS,
  PROJECT_TOKEN_PREFIX,
  PUBLIC_API,
  errorResponseSchema,
  operationsOf,
  type ApiOperation,
  type BodySchema,
  type ErrorStatus,
  type HeaderName,
  type HttpMethod,
  type Parameter,
  type ServiceApi,
} from '@tolk/contracts';
import { compileRoutePath } from '../route-dispatch.js';
import type { GatewayRoute } from '../routes.js';
import { GATEWAY_OPERATIONS, GATEWAY_SCHEMAS, HEADERS, PATH_PARAMETERS } from './document-definitions.js';
import { componentSchemas, schemaRef, type JsonSchema } from './schema-components.js';

export const API_VERSION = '2.0.0';

export type SecurityRequirement = Record<string, string[]>;

export type OpenApiResponse = {
  description: string;
  headers?: Record<string, { $ref: string }>;
  content?: { 'application/json': { schema: JsonSchema } };
};

export type OpenApiOperation = {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: {
    required: boolean;
    description?: string;
    content: { 'application/json': { schema: JsonSchema } };
  };
  responses: Record<string, OpenApiResponse>;
  security: SecurityRequirement[];
};

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; summary: string; description: string; license: object };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<HttpMethod, OpenApiOperation>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, object>;
    headers: Record<string, { description: string; required?: boolean; schema: JsonSchema }>;
  };
};

const DESCRIPTION = `Tolk is a command-line-first, AI-assisted translation management API.

**Authentication.** Every route needs \`Authorization: Bearer <token>\` except signup, login, refresh,
logout, the device-login start and poll, and this document. Two kinds of token are accepted: an
**access token** (a short-lived ES256 JWT from signup, login, refresh or the device login) and a
**project API token** (\`${PROJECT_TOKEN_PREFIX}…\`, created under API Tokens for CI/CD). A project API
token reaches only its own project: \`read\` reads its project, source and locales; \`read_write\`
also uploads source and translations. Each operation lists the kinds it accepts; the scope of a
project token requirement is the permission it needs. A user reaches a project only as its member:
anyone else gets 404, as for a project that does not exist.

**Errors.** Every error has the body \`{"error":{"code":"UPPER_CASE","message":"..."}}\` (the
\`Error\` schema) and an \`X-Request-Id\` header. A method a path does not serve answers 405
\`METHOD_NOT_ALLOWED\` with an \`Allow\` header; a path that does not exist answers 404.

**Conventions.** Bodies are JSON (\`Content-Type: application/json\`); request bodies may be up to
10 MiB, must be complete within 2 minutes and, after their first 5 s, arrive at 1 KiB/s on average
(else 408), and a caller may have at most 10 requests with a body in progress (else 429) — all by
default. Timestamps are epoch milliseconds. Locale codes match \`^[a-z]{2,3}(-[A-Z]{2,3})?$\` in any
case and are returned canonically (\`pt-BR\`).`;

const ERROR_MEANINGS: Record<ErrorStatus, string> = {
  400:
    'The body is not JSON (INVALID_JSON), or a field or parameter is invalid, or the query holds a ' +
    'parameter the operation does not take, twice, or in brackets (VALIDATION_ERROR; the message names it)',
  401: 'No token, or a malformed, unknown, expired or revoked one (UNAUTHORIZED)',
  403: 'This kind of token or its permission does not allow this (FORBIDDEN)',
  404: 'No such project, or the caller is not a member of it (NOT_FOUND)',
  408: 'The body did not arrive in time, or trickled in too slowly; the connection is closed (REQUEST_TIMEOUT)',
  409: 'A conflict with what is stored (CONFLICT)',
  412: 'The precondition does not hold (PRECONDITION_FAILED)',
  413: 'The body is over the size limit (PAYLOAD_TOO_LARGE)',
  415: 'The body is not sent as application/json (UNSUPPORTED_MEDIA_TYPE)',
  429: 'Too many requests (RATE_LIMITED): wait as many seconds as Retry-After says',
  500: 'A bug, logged with the request id; the message holds no internals (INTERNAL_ERROR)',
  503:
    'A service behind the gateway, or its database, is down or restarting (SERVICE_UNAVAILABLE): ' +
    'wait as many seconds as Retry-After says when it is sent',
  504: 'A service behind the gateway answered too slowly (GATEWAY_TIMEOUT)',
};

function headerRefs(names: HeaderName[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/** The route of the table that serves an operation's path, found as the gateway finds it. */
function routeOf(operation: ApiOperation, routes: readonly GatewayRoute[]): GatewayRoute | undefined {
  if (operation.servedBy === 'gateway') return undefined;
  const example = operation.path.replace(/\{\w+\}/g, 'x');
  const route = routes.find((candidate) => compileRoutePath(candidate.path).test(example));
  if (!route) throw new Error(`${operation.method} ${operation.path} is not a route of the gateway`);
  return route;
}

function tokenPermissionOf(route: GatewayRoute | undefined, method: HttpMethod) {
  return route?.tokens?.[method.toUpperCase() as 'GET' | 'PUT'];
}

/** Who may call: nobody needs a token on a public route; a user always; a project token where the table says. */
function securityOf(route: GatewayRoute | undefined, method: HttpMethod): SecurityRequirement[] {
  if (!route || route.access === 'public') return [];
  const permission = tokenPermissionOf(route, method);
  return permission ? [{ accessToken: [] }, { projectApiToken: [permission] }] : [{ accessToken: [] }];
}

function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

/** The errors an operation can answer: those of its kind (body, token, project, gateway), then its own. */
function errorsOf(operation: ApiOperation, route: GatewayRoute | undefined): Map<ErrorStatus, string> {
  const errors = new Map<ErrorStatus, string>();
  const add = (status: ErrorStatus, meaning = ERROR_MEANINGS[status]) => errors.set(status, meaning);
  // Every operation refuses a query parameter it does not take (`?foo=1`, `?dryRun[]=true`).
  add(400);
  if (route && route.access !== 'public') {
    add(401);
    const permission = tokenPermissionOf(route, operation.method);
    if (!permission) add(403, 'A project API token may not do this: it needs an access token (FORBIDDEN)');
    if (permission === 'read_write') {
      add(403, 'A project API token with read permission may not upload: it needs read_write (FORBIDDEN)');
    }
  }
  if (route?.scope === 'project') add(404);
  if (operation.requestBody) {
    if (operation.servedBy !== 'gateway') add(408);
    add(413);
    add(415);
  }
  if (operation.servedBy !== 'gateway') {
    add(429);
    add(503);
    add(504);
  }
  // An operation's own words for a status win over those of its kind.
  for (const [status, meaning] of Object.entries(operation.errors ?? {})) {
    add(Number(status) as ErrorStatus, meaning);
  }
  add(500);
  return new Map([...errors].sort(([a], [b]) => a - b));
}

function errorResponse(status: ErrorStatus, meaning: string): OpenApiResponse {
  return {
    description: meaning,
    headers: headerRefs(
      status === 429 || status === 503 ? ['X-Request-Id', 'Retry-After'] : ['X-Request-Id'],
    ),
    content: { 'application/json': { schema: schemaRef('Error') } },
  };
}

function operationObject(
  operation: ApiOperation,
  route: GatewayRoute | undefined,
  nameOf: (schema: BodySchema, side: 'request' | 'response', where: string) => string,
): OpenApiOperation {
  const where = `${operation.method.toUpperCase()} ${operation.path}`;
  const parameters: Parameter[] = [
    ...pathParameterNames(operation.path).map((name) => {
      const known = PATH_PARAMETERS[name];
      if (!known) throw new Error(`path parameter {${name}} of ${operation.path} is not described`);
      return {
        name,
        in: 'path' as const,
        required: true,
        description: known.description,
        schema: known.schema,
      };
    }),
    ...(operation.parameters ?? []),
  ];
  const { success } = operation;
  const responses: Record<string, OpenApiResponse> = {
    [success.status]: {
      description: success.description,
      headers: headerRefs(['X-Request-Id', ...(success.headers ?? [])]),
      ...(success.schema
        ? {
            content: { 'application/json': { schema: schemaRef(nameOf(success.schema, 'response', where)) } },
          }
        : {}),
    },
  };
  for (const [status, meaning] of errorsOf(operation, route))
    responses[status] = errorResponse(status, meaning);
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.requestBody
      ? {
          requestBody: {
            required: operation.requestBody.required,
            ...(operation.requestBody.description ? { description: operation.requestBody.description } : {}),
            content: {
              'application/json': {
                schema: schemaRef(nameOf(operation.requestBody.schema, 'request', where)),
              },
            },
          },
        }
      : {}),
    responses,
    security: securityOf(route, operation.method),
  };
}

/** Named schemas of the sources, refusing a name given twice. */
function mergeNamed<T>(sources: Record<string, T>[]): Record<string, T> {
  const merged: Record<string, T> = {};
  for (const source of sources) {
    for (const [name, schema] of Object.entries(source)) {
      if (name in merged) throw new Error(`schema ${name} is named twice`);
      merged[name] = schema;
    }
  }
  return merged;
}

/**
 * The document's named schemas: the services' request and answer schemas (zod's input and output
 * side), the error envelope, and those written as JSON Schema; with the name of each body schema.
 */
function namedSchemas(apis: readonly ServiceApi[]) {
  const requests = mergeNamed(apis.map((api) => api.requestSchemas));
  const responses = mergeNamed([{ Error: errorResponseSchema }, ...apis.map((api) => api.responseSchemas)]);
  const schemas = mergeNamed([
    componentSchemas(requests, 'input'),
    componentSchemas(responses, 'output'),
    LOCALE_FILE_SCHEMAS,
    GATEWAY_SCHEMAS,
  ]);
  const names = {
    request: new Map<z.ZodType, string>(Object.entries(requests).map(([name, schema]) => [schema, name])),
    response: new Map<z.ZodType, string>(Object.entries(responses).map(([name, schema]) => [schema, name])),
  };
  /** The name of an operation's body (`request`) or answer (`response`) schema. */
  function nameOf(schema: BodySchema, side: 'request' | 'response', where: string): string {
    const name = typeof schema === 'string' ? schema : names[side].get(schema);
    if (name === undefined || !(name in schemas)) {
      throw new Error(`the ${side} schema of ${where} is not named in the ${side}Schemas of its API`);
    }
    return name;
  }
  return { schemas, nameOf };
}

/**
 * The OpenAPI 3.1 document of every public operation, from what each service's API declares in
 * @tolk/contracts: its operations, bodies and answers from the zod schemas the services validate
 * with, and security from its routes (the gateway's route table). Built once, at start.
 */
export function buildOpenApiDocument(apis: readonly ServiceApi[] = PUBLIC_API): OpenApiDocument {
  const routes = apis.flatMap((api) => api.routes);
  const { schemas, nameOf } = namedSchemas(apis);
  const paths: OpenApiDocument['paths'] = {};
  for (const operation of [...apis.flatMap(operationsOf), ...GATEWAY_OPERATIONS]) {
    const item = (paths[operation.path] ??= {});
    if (item[operation.method]) throw new Error(`${operation.method} ${operation.path} is described twice`);
    item[operation.method] = operationObject(operation, routeOf(operation, routes), nameOf);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tolk API',
      version: API_VERSION,
      summary: 'AI-assisted translation management for a command-line-first workflow',
      description: DESCRIPTION,
      license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/', description: 'This gateway' }],
    tags: API_TAGS.map((tag) => ({ ...tag })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        accessToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A user access token: an ES256 JWT from signup, login, refresh or the device login, valid for minutes',
        },
        projectApiToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: `${PROJECT_TOKEN_PREFIX}…`,
          description:
            `A project API token (\`${PROJECT_TOKEN_PREFIX}\` + 36 characters) for CI/CD, with permission ` +
            '`read` or `read_write` on its own project; the scopes of a requirement name the permission needed',
        },
      },
      headers: HEADERS,
    },
  };
}
