/** The public API of a project's glossary (project-service). */
import { READ_AND_UPLOAD_TOKENS, type ServiceApi } from './api-contract.js';
import {
  DEFAULT_GLOSSARY_PAGE_SIZE,
  MAX_GLOSSARY_CURSOR_LENGTH,
  MAX_GLOSSARY_PAGE_SIZE,
  createGlossaryEntryRequestSchema,
  glossaryEntrySchema,
  glossaryResponseSchema,
  replaceGlossaryRequestSchema,
  replaceGlossaryResponseSchema,
  updateGlossaryEntryRequestSchema,
} from './glossary.js';

export const glossaryApi: ServiceApi = {
  tag: 'Projects',
  requestSchemas: {
    CreateGlossaryEntryRequest: createGlossaryEntryRequestSchema,
    UpdateGlossaryEntryRequest: updateGlossaryEntryRequestSchema,
    ReplaceGlossaryRequest: replaceGlossaryRequestSchema,
  },
  responseSchemas: {
    GlossaryEntry: glossaryEntrySchema,
    Glossary: glossaryResponseSchema,
    GlossaryImportResult: replaceGlossaryResponseSchema,
  },
  routes: [
    {
      path: '/v1/projects/:projectId/glossary{/*rest}',
      service: 'project',
      access: 'user',
      scope: 'project',
      tokens: READ_AND_UPLOAD_TOKENS,
    },
  ],
  operations: {
    'GET /v1/projects/{projectId}/glossary': {
      operationId: 'getGlossary',
      summary: "The project's glossary, a page at a time",
      description:
        'Terms with their rendering per target locale, or kept as is, ordered by term ignoring case. The CLI ' +
        'puts the entries a batch uses into the prompt and checks answers against them. Any member, and any ' +
        'API token of the project. With `limit` or `cursor`, one page: at most `limit` entries (default 100), ' +
        'ending early once it holds 512 KiB of text (it always holds one entry), with the whole glossary’s ' +
        '`total` and `bytes` and the `nextCursor` to send for the next page (null on the last). Without ' +
        'both, as before pages: `{"entries": [...]}` with every entry and nothing else — at most the ' +
        "glossary's bound of 10,000 entries and 4 MiB of text, sent as it is read.",
      parameters: [
        {
          name: 'limit',
          in: 'query',
          required: false,
          description: 'Entries on the page (default 100)',
          schema: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_GLOSSARY_PAGE_SIZE,
            default: DEFAULT_GLOSSARY_PAGE_SIZE,
          },
        },
        {
          name: 'cursor',
          in: 'query',
          required: false,
          description: '`nextCursor` of the previous page; absent for the first',
          schema: { type: 'string', maxLength: MAX_GLOSSARY_CURSOR_LENGTH },
        },
      ],
      success: {
        status: 200,
        description: 'A page; or, without limit and cursor, every entry',
        schema: glossaryResponseSchema,
      },
      errors: { 400: 'A bad limit or cursor (VALIDATION_ERROR)' },
    },
    'POST /v1/projects/{projectId}/glossary': {
      operationId: 'addGlossaryEntry',
      summary: 'Add a glossary entry',
      description:
        '`term` is trimmed, 1 to 200 characters; a term is one entry whatever its case (`caseSensitive` ' +
        'says how it is found in source texts). `translations` maps target locale codes (BCP 47, any ' +
        'case, stored canonical) to renderings of at most 1,000 characters; it must be empty when ' +
        '`keepAsIs` is true. `note` at most 1,000 characters.',
      requestBody: { schema: createGlossaryEntryRequestSchema, required: true },
      success: { status: 201, description: 'The new entry', schema: glossaryEntrySchema },
      errors: {
        409: 'The glossary already has an entry for this term, ignoring case (CONFLICT)',
        413: 'The glossary would hold more than 10,000 entries or 4 MiB of text; the message says what it holds and what the entry adds (PAYLOAD_TOO_LARGE); or a body over 1 MiB',
      },
    },
    'PUT /v1/projects/{projectId}/glossary': {
      operationId: 'importGlossary',
      summary: 'Replace (or merge into) the whole glossary at once',
      description:
        'All or nothing: at most 10,000 entries, each as `addGlossaryEntry` takes it, no term twice ' +
        '(ignoring case); any problem refuses the whole import and names the entries. Entries whose term ' +
        'exists keep their `entryId`. Without `merge`, entries left out are deleted; with `merge=true` they ' +
        'stay. The glossary after the import must hold at most 10,000 entries and 4 MiB of text (the UTF-8 ' +
        'bytes of terms, notes, locale codes and renderings). One import carries at most 8 MiB, 250,000 ' +
        'renderings and 1,000 different locale codes. The answer is counts, not the entries: read them ' +
        'with `getGlossary`. One caller’s imports are carried out one after another, and callers take ' +
        'turns with a few imports at a time; an import not stored within 20 s of reaching the service ' +
        '(by default) is refused with 503 and nothing of it is stored — an import is stored only when ' +
        'it is answered 200.',
      parameters: [
        {
          name: 'merge',
          in: 'query',
          required: false,
          description: '`true`: keep the entries whose terms the import leaves out (default `false`)',
          schema: { type: 'string', enum: ['true', 'false'] },
        },
      ],
      requestBody: { schema: replaceGlossaryRequestSchema, required: true },
      success: {
        status: 200,
        description: 'What the import did, and what the glossary holds after it',
        schema: replaceGlossaryResponseSchema,
      },
      errors: {
        413: 'The glossary would hold more than 10,000 entries or 4 MiB of text — the message says what it holds and what the import would make of it — or the body is over 8 MiB, 250,000 renderings or 1,000 locale codes; nothing is imported (PAYLOAD_TOO_LARGE)',
        503: 'The import waited too long for its turn (other imports ran first): nothing is imported; retry after the seconds Retry-After says (SERVICE_UNAVAILABLE). Also when a service behind the gateway, or its database, is down or restarting',
      },
    },
    'PATCH /v1/projects/{projectId}/glossary/{entryId}': {
      operationId: 'updateGlossaryEntry',
      summary: 'Change a glossary entry',
      description: 'The fields given replace those of the entry; `translations` replaces the whole map.',
      requestBody: { schema: updateGlossaryEntryRequestSchema, required: true },
      success: { status: 200, description: 'The entry as changed', schema: glossaryEntrySchema },
      errors: {
        404: 'No such project, or no such entry in it (NOT_FOUND)',
        409: 'Another entry has this term, ignoring case (CONFLICT)',
        413: 'The change would take the glossary past 4 MiB of text (PAYLOAD_TOO_LARGE); or a body over 1 MiB',
      },
    },
    'DELETE /v1/projects/{projectId}/glossary/{entryId}': {
      operationId: 'deleteGlossaryEntry',
      summary: 'Delete a glossary entry',
      success: { status: 204, description: 'Deleted' },
      errors: { 404: 'No such project, or no such entry in it (NOT_FOUND)' },
    },
  },
};
