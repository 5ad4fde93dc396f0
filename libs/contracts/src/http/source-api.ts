/** The public API of source-service: the source locale file, its versions and diffs. */
import { READ_AND_UPLOAD_TOKENS, type JsonSchema, type ServiceApi } from './api-contract.js';
import {
  MAX_SOURCE_VERSION,
  diffSchema,
  sourceFileResponseSchema,
  uploadResponseSchema,
  versionListResponseSchema,
} from './source.js';

/** A source version as a parameter: an integer from `minimum` (0 is the empty source before any upload). */
export function versionNumberSchema(minimum: number): JsonSchema {
  return { type: 'integer', minimum, maximum: MAX_SOURCE_VERSION };
}

export const sourceApi: ServiceApi = {
  tag: 'Source Files',
  requestSchemas: {},
  responseSchemas: {
    Diff: diffSchema,
    UploadResult: uploadResponseSchema,
    SourceFile: sourceFileResponseSchema,
    SourceVersionList: versionListResponseSchema,
  },
  routes: [
    {
      path: '/v1/projects/:projectId/source{/*rest}',
      service: 'source',
      access: 'user',
      scope: 'project',
      tokens: READ_AND_UPLOAD_TOKENS,
    },
  ],
  operations: {
    'PUT /v1/projects/{projectId}/source': {
      operationId: 'uploadSource',
      summary: 'Upload the source locale file',
      description:
        'The body is the locale file itself. The service computes the diff against the previous ' +
        'version; when anything changed it creates the next version and marks target locales behind. ' +
        'An upload equal to the current source creates no version (same `version`, empty diff).',
      parameters: [
        {
          name: 'dryRun',
          in: 'query',
          required: false,
          description: 'true: answer what the upload would do, and store nothing',
          schema: { type: 'boolean', default: false },
        },
        {
          name: 'If-Match',
          in: 'header',
          required: false,
          description:
            'Optimistic concurrency: the source version the upload is based on, as the ETag of GET ' +
            '(`"3"`; also `3`, `W/"3"`, a comma-separated list, or `*` for "some version exists"). ' +
            '`"0"` means nothing has been uploaded yet.',
          schema: { type: 'string' },
        },
      ],
      requestBody: { schema: 'LocaleFile', required: true },
      success: {
        status: 200,
        description: 'The version, its diff against the previous one, and whether translation is needed',
        schema: uploadResponseSchema,
        headers: ['ETag'],
      },
      errors: {
        412: 'The source is no longer at the If-Match version (PRECONDITION_FAILED)',
        413: 'The body is over 10 MiB, or holds more than 200,000 keys (PAYLOAD_TOO_LARGE)',
      },
    },
    'GET /v1/projects/{projectId}/source': {
      operationId: 'getSource',
      summary: 'The current source file, its version and pending diff',
      success: {
        status: 200,
        description: 'The current source',
        schema: sourceFileResponseSchema,
        headers: ['ETag'],
      },
      errors: { 404: 'No such project, or no source uploaded yet (NOT_FOUND)' },
    },
    'GET /v1/projects/{projectId}/source/versions': {
      operationId: 'listSourceVersions',
      summary: 'Every source version, newest first, with counts of changed keys',
      description:
        'Each version also names its renames (a key deleted and another added with the same value and ' +
        'context annotation: translations carried over to the new key) and restores (a key added again ' +
        'with the value and context it had when it was deleted: its last translations come back). ' +
        "Neither changes the version's diff; carried keys are not in `pendingDiff` once the translation " +
        'baseline has their revision.',
      success: { status: 200, description: 'The versions', schema: versionListResponseSchema },
    },
    'GET /v1/projects/{projectId}/source/versions/{version}': {
      operationId: 'getSourceVersion',
      summary: 'The source file as it was at one version',
      success: {
        status: 200,
        description: 'That version',
        schema: sourceFileResponseSchema,
        headers: ['ETag'],
      },
      errors: { 404: 'No such project, or no such version (NOT_FOUND)' },
    },
    'GET /v1/projects/{projectId}/source/diff': {
      operationId: 'diffSourceVersions',
      summary: 'The diff between two source versions',
      parameters: [
        {
          name: 'from',
          in: 'query',
          required: true,
          description: 'The older version; 0 is the empty source before any upload',
          schema: versionNumberSchema(0),
        },
        {
          name: 'to',
          in: 'query',
          required: true,
          description: 'The newer version; 0 is the empty source before any upload',
          schema: versionNumberSchema(0),
        },
      ],
      success: {
        status: 200,
        description: 'Keys added, modified and deleted from `from` to `to`',
        schema: diffSchema,
      },
      errors: { 404: 'No such project, or no such version (NOT_FOUND)' },
    },
  },
};
