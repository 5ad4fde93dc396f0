/**
 * What the OpenAPI document says once for all its operations — the headers of answers, the path
 * parameters of the templates — and the operation the gateway answers itself. Each service's
 * operations are declared beside their zod schemas, in @tolk/contracts (`PUBLIC_API`).
 */
import {
  MAX_TARGET_LOCALE_LENGTH,
  TARGET_LOCALE_PATTERN,
  byokProviderSchema,
  versionNumberSchema,
  type ApiOperation,
  type HeaderName,
  type JsonSchema,
  type Parameter,
} from '@tolk/contracts';
import { caseInsensitivePattern, inlineSchema } from './schema-components.js';

export const HEADERS = {
  'X-Request-Id': {
    description: 'The id of this request, also in every log line about it; quote it when reporting a problem',
    required: true,
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    schema: { type: 'integer', minimum: 0 },
  },
  ETag: {
    description:
      'The version of what was answered as an entity tag, e.g. `"3"`: the source version for the ' +
      "source, the revision of a locale's translations for them. Send it back as `If-Match` with " +
      'the upload based on it',
    schema: { type: 'string' },
  },
} satisfies Record<HeaderName, { description: string; required?: boolean; schema: JsonSchema }>;
/**
 * Every path parameter of the templates, as the services' parsers accept it: a locale, provider
 * or version of the wrong form is a VALIDATION_ERROR (400); the ids are opaque (unknown ones: 404).
 */
export const PATH_PARAMETERS: Record<string, Omit<Parameter, 'name' | 'in' | 'required'>> = {
  projectId: { description: 'The project', schema: { type: 'string', minLength: 1 } },
  userId: {
    description: 'A member of the project',
    schema: { type: 'string', minLength: 1 },
  },
  entryId: {
    description: 'A glossary entry (its `entryId`)',
    schema: { type: 'string', minLength: 1 },
  },
  tokenId: {
    description: 'A project API token (its `tokenId`)',
    schema: { type: 'string', minLength: 1 },
  },
  locale: {
    description:
      'A target locale: a BCP 47 code such as `de`, `pt-BR`, `zh-Hant` or `es-419`, in any case ' +
      '(`zh-hant` is `zh-Hant`); one `Intl.getCanonicalLocales` accepts',
    schema: {
      type: 'string',
      maxLength: MAX_TARGET_LOCALE_LENGTH,
      pattern: caseInsensitivePattern(TARGET_LOCALE_PATTERN.source),
    },
  },
  provider: { description: 'The AI provider', schema: inlineSchema(byokProviderSchema) },
  version: { description: 'A source version', schema: versionNumberSchema(0) },
};

/** The schema of the gateway's own answer: the document itself. */
export const GATEWAY_SCHEMAS: Record<'OpenApiDocument', JsonSchema> = {
  OpenApiDocument: {
    type: 'object',
    description: 'An OpenAPI 3.1 document: this one',
    required: ['openapi', 'info', 'paths'],
    properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
  },
};

/** Operations answered by the gateway itself rather than a route: public, not rate-limited. */
export const GATEWAY_OPERATIONS: ApiOperation[] = [
  {
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Meta',
    summary: 'This OpenAPI 3.1 document',
    description: 'An interactive reference generated from it is at `/docs`.',
    success: { status: 200, description: 'The document', schema: 'OpenApiDocument' },
    servedBy: 'gateway',
  },
];
