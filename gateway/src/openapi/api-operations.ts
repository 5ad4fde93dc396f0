/**
 * What the OpenAPI document says about each public operation, beyond what the route table and the
 * services' zod schemas already say: its summary, which named schema its body and answer use, its
 * parameters that no zod schema describes, and the errors particular to it. Who may call it
 * (security) comes from `ROUTES`; the errors every operation of its kind can answer are added by
 * the document builder.
 */
import type { z } from 'zod';
import {
  MAX_TARGET_LOCALE_LENGTH,
  TARGET_LOCALE_PATTERN,
  MAX_SOURCE_VERSION,
  addLocaleBodySchema,
  addMemberRequestSchema,
  apiTokenSchema,
  byokProviderSchema,
  DEFAULT_GLOSSARY_PAGE_SIZE,
  MAX_GLOSSARY_CURSOR_LENGTH,
  MAX_GLOSSARY_PAGE_SIZE,
  createGlossaryEntryRequestSchema,
  createProjectRequestSchema,
  glossaryEntrySchema,
  glossaryResponseSchema,
  replaceGlossaryRequestSchema,
  replaceGlossaryResponseSchema,
  updateGlossaryEntryRequestSchema,
  createTokenRequestSchema,
  createTokenResponseSchema,
  deleteAccountRequestSchema,
  deviceAuthorizationRequestSchema,
  deviceAuthorizationResponseSchema,
  deviceTokenRequestSchema,
  diffSchema,
  errorResponseSchema,
  keyListResponseSchema,
  keyReadingResponseSchema,
  keyStatusSchema,
  localeDetailResponseSchema,
  localeListResponseSchema,
  localeResponseSchema,
  loginRequestSchema,
  memberListResponseSchema,
  memberResponseSchema,
  projectListResponseSchema,
  projectResponseSchema,
  refreshTokenRequestSchema,
  sessionResponseSchema,
  signupRequestSchema,
  sourceFileResponseSchema,
  storeKeyRequestSchema,
  storedKeyResponseSchema,
  tokenListResponseSchema,
  translationsResponseSchema,
  uploadTranslationsResponseSchema,
  memoryLookupBodySchema,
  memoryLookupResponseSchema,
  browseKeysResponseSchema,
  updateMemberRequestSchema,
  updateProjectRequestSchema,
  uploadResponseSchema,
  userCodeRequestSchema,
  userResponseSchema,
  versionListResponseSchema,
} from '@tolk/contracts';
import { caseInsensitivePattern, inlineSchema, schemaRef, type JsonSchema } from './schema-components.js';

/** Request bodies, by component name: validated by the services with these very schemas. */
export const REQUEST_SCHEMAS = {
  SignupRequest: signupRequestSchema,
  LoginRequest: loginRequestSchema,
  RefreshTokenRequest: refreshTokenRequestSchema,
  DeviceAuthorizationRequest: deviceAuthorizationRequestSchema,
  DeviceTokenRequest: deviceTokenRequestSchema,
  UserCodeRequest: userCodeRequestSchema,
  CreateProjectRequest: createProjectRequestSchema,
  UpdateProjectRequest: updateProjectRequestSchema,
  AddMemberRequest: addMemberRequestSchema,
  UpdateMemberRequest: updateMemberRequestSchema,
  DeleteAccountRequest: deleteAccountRequestSchema,
  AddLocaleRequest: addLocaleBodySchema,
  MemoryLookupRequest: memoryLookupBodySchema,
  CreateTokenRequest: createTokenRequestSchema,
  StoreProviderKeyRequest: storeKeyRequestSchema,
  CreateGlossaryEntryRequest: createGlossaryEntryRequestSchema,
  UpdateGlossaryEntryRequest: updateGlossaryEntryRequestSchema,
  ReplaceGlossaryRequest: replaceGlossaryRequestSchema,
} satisfies Record<string, z.ZodType>;

/** Answers, by component name: the schemas the services' own tests hold their answers to. */
export const RESPONSE_SCHEMAS = {
  Error: errorResponseSchema,
  User: userResponseSchema,
  Session: sessionResponseSchema,
  DeviceAuthorization: deviceAuthorizationResponseSchema,
  Project: projectResponseSchema,
  ProjectList: projectListResponseSchema,
  Member: memberResponseSchema,
  MemberList: memberListResponseSchema,
  Diff: diffSchema,
  UploadResult: uploadResponseSchema,
  SourceFile: sourceFileResponseSchema,
  SourceVersionList: versionListResponseSchema,
  Locale: localeResponseSchema,
  UploadedLocale: uploadTranslationsResponseSchema,
  LocaleDetail: localeDetailResponseSchema,
  LocaleList: localeListResponseSchema,
  Translations: translationsResponseSchema,
  MemoryLookup: memoryLookupResponseSchema,
  KeyPage: browseKeysResponseSchema,
  ApiToken: apiTokenSchema,
  CreateTokenResponse: createTokenResponseSchema,
  ApiTokenList: tokenListResponseSchema,
  ByokKeyStatus: keyReadingResponseSchema,
  StoredProviderKey: storedKeyResponseSchema,
  ProviderKeyStatus: keyStatusSchema,
  ProviderKeyList: keyListResponseSchema,
  GlossaryEntry: glossaryEntrySchema,
  Glossary: glossaryResponseSchema,
  GlossaryImportResult: replaceGlossaryResponseSchema,
} satisfies Record<string, z.ZodType>;

/**
 * Bodies no zod schema describes: a locale file is checked by @tolk/locale-file's parser (leaves,
 * nesting, annotations, limits), which says more than a schema could.
 */
export const HAND_WRITTEN_SCHEMAS: Record<string, JsonSchema> = {
  LocaleFile: {
    type: 'object',
    description:
      'A locale file, not wrapped in another field: a JSON object of translation keys, flat or nested ' +
      '(nested objects and arrays flatten to dotted keys such as `home.title`, `steps.0`). Leaves are ' +
      'strings. ARB-style annotations: `"@name": {"description": "...", "maxLength": 40}` annotates the ' +
      'sibling key `name` and is context for the translator, not a key (a changed annotation outdates ' +
      'its key in every target locale unless the project setting `outdateOnContextChange` is false); ' +
      '`"@@..."` keys are file ' +
      'metadata. Numbers, booleans and null as leaves, empty key segments, an `@x` without a sibling ' +
      '`x`, and a flat key colliding with a nested path are VALIDATION_ERROR. Limits (configurable; ' +
      'the defaults): at most 10 MiB and 200,000 keys (PAYLOAD_TOO_LARGE); nesting 32 levels deep, key ' +
      'paths of 1,000 characters (UTF-16 units), and values of 100,000 characters with at most 1,000 opening braces ' +
      '`{` each (every ICU argument, placeholder and plural or select branch takes one), past which ' +
      'the upload is VALIDATION_ERROR naming the key and the limit, and nothing is stored.',
    patternProperties: { '^@': { description: 'An annotation (object) or file metadata' } },
    additionalProperties: schemaRef('LocaleFileValue'),
  },
  LocaleFileValue: {
    anyOf: [
      // The default limits of a value (DEFAULT_SOURCE_LIMITS of @tolk/locale-file; a test holds them equal).
      {
        type: 'string',
        maxLength: 100_000,
        description: 'At most 1,000 opening braces `{` (the default limits)',
      },
      schemaRef('LocaleFile'),
      { type: 'array', items: schemaRef('LocaleFileValue') },
    ],
  },
  OpenApiDocument: {
    type: 'object',
    description: 'An OpenAPI 3.1 document: this one',
    required: ['openapi', 'info', 'paths'],
    properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
  },
};

export type RequestSchemaName = keyof typeof REQUEST_SCHEMAS | 'LocaleFile';
export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS | 'OpenApiDocument';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 412 | 413 | 415 | 429 | 500 | 503 | 504;

export type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
};

export type ApiOperation = {
  method: HttpMethod;
  /** The OpenAPI path template (`{projectId}`), of a route in `ROUTES` unless `servedBy` says otherwise. */
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** Query and header parameters; path parameters come from the template (`PATH_PARAMETERS`). */
  parameters?: Parameter[];
  requestBody?: { schema: RequestSchemaName; required: boolean; description?: string };
  success: {
    status: 200 | 201 | 204;
    description: string;
    schema?: ResponseSchemaName;
    headers?: HeaderName[];
  };
  /** Errors particular to this operation, with what they mean here. */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** Answered by the gateway itself rather than a route of `ROUTES`: public, not rate-limited. */
  servedBy?: 'gateway';
};

export const TAGS = [
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
export type Tag = (typeof TAGS)[number]['name'];

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
} satisfies Record<string, { description: string; required?: boolean; schema: JsonSchema }>;
export type HeaderName = keyof typeof HEADERS;

const versionNumber = (minimum: number): JsonSchema => ({
  type: 'integer',
  minimum,
  maximum: MAX_SOURCE_VERSION,
});

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
  version: { description: 'A source version', schema: versionNumber(0) },
};

const PROJECT = '/v1/projects/{projectId}';
const LOCALE = `${PROJECT}/locales/{locale}`;

/** Every public operation. */
export const OPERATIONS: ApiOperation[] = [
  // ---- Auth ----
  {
    method: 'post',
    path: '/v1/auth/signup',
    operationId: 'signUp',
    tag: 'Auth',
    summary: 'Create an account',
    description: 'Signs the new user in: the answer holds an access token and a refresh token.',
    requestBody: { schema: 'SignupRequest', required: true },
    success: { status: 201, description: 'The account, signed in', schema: 'Session' },
    errors: { 409: 'An account with this email already exists (CONFLICT)' },
  },
  {
    method: 'post',
    path: '/v1/auth/login',
    operationId: 'logIn',
    tag: 'Auth',
    summary: 'Sign in with email and password',
    requestBody: { schema: 'LoginRequest', required: true },
    success: { status: 200, description: 'Signed in', schema: 'Session' },
    errors: {
      401: 'Wrong email or password: one message for both, so addresses cannot be probed (UNAUTHORIZED)',
      429: 'Too many attempts from this address, or failed logins for this email (RATE_LIMITED)',
    },
  },
  {
    method: 'post',
    path: '/v1/auth/refresh',
    operationId: 'refreshSession',
    tag: 'Auth',
    summary: 'Renew the access token',
    description:
      'The refresh token is rotated: the answer holds a new one. Reusing a rotated refresh token ' +
      'revokes its whole family.',
    requestBody: { schema: 'RefreshTokenRequest', required: true },
    success: { status: 200, description: 'A new access token and refresh token', schema: 'Session' },
    errors: { 401: 'Unknown, expired, revoked or reused refresh token (UNAUTHORIZED)' },
  },
  {
    method: 'post',
    path: '/v1/auth/logout',
    operationId: 'logOut',
    tag: 'Auth',
    summary: 'Sign out: revoke a refresh token',
    requestBody: { schema: 'RefreshTokenRequest', required: true },
    success: { status: 204, description: 'Signed out' },
  },
  {
    method: 'post',
    path: '/v1/auth/device',
    operationId: 'startDeviceLogin',
    tag: 'Auth',
    summary: 'Start a command-line (device) login',
    description:
      'RFC 8628: the CLI shows `userCode` and `verificationUri`, then polls `/v1/auth/device/token` ' +
      'every `interval` seconds while the user approves the login in a signed-in session.',
    requestBody: { schema: 'DeviceAuthorizationRequest', required: false },
    success: {
      status: 200,
      description: 'A device code and the code for the user',
      schema: 'DeviceAuthorization',
    },
  },
  {
    method: 'post',
    path: '/v1/auth/device/token',
    operationId: 'pollDeviceLogin',
    tag: 'Auth',
    summary: 'Collect the tokens of a device login',
    requestBody: { schema: 'DeviceTokenRequest', required: true },
    success: { status: 200, description: 'Approved: signed in', schema: 'Session' },
    errors: {
      400:
        'Not yet: AUTHORIZATION_PENDING (keep polling), SLOW_DOWN (polling too fast; wait 5 s more), ' +
        'EXPIRED_TOKEN, ACCESS_DENIED; or VALIDATION_ERROR / INVALID_JSON',
    },
  },
  {
    method: 'post',
    path: '/v1/auth/device/approve',
    operationId: 'approveDeviceLogin',
    tag: 'Auth',
    summary: 'Approve a device login as the signed-in user',
    requestBody: { schema: 'UserCodeRequest', required: true },
    success: { status: 204, description: 'Approved: the CLI receives tokens of this user' },
    errors: {
      404: 'No pending device login with this code: unknown, expired, or already decided (NOT_FOUND)',
    },
  },
  {
    method: 'post',
    path: '/v1/auth/device/deny',
    operationId: 'denyDeviceLogin',
    tag: 'Auth',
    summary: 'Deny a device login',
    requestBody: { schema: 'UserCodeRequest', required: true },
    success: { status: 204, description: 'Denied: the CLI is answered ACCESS_DENIED' },
    errors: {
      404: 'No pending device login with this code: unknown, expired, or already decided (NOT_FOUND)',
    },
  },

  // ---- User ----
  {
    method: 'get',
    path: '/v1/user/me',
    operationId: 'getCurrentUser',
    tag: 'User',
    summary: 'The signed-in user',
    success: { status: 200, description: 'The user', schema: 'User' },
  },
  {
    method: 'delete',
    path: '/v1/user/me',
    operationId: 'deleteCurrentUser',
    tag: 'User',
    summary: 'Delete the signed-in account, after a confirmation',
    description:
      'Without `confirm` nothing is deleted: the answer is 409 CONFLICT, whose message names the ' +
      'projects the account is the only owner of, which would be deleted with it (make another ' +
      'member an owner first to keep one). With `{"confirm": "<the account\'s email>"}` the account ' +
      'is deleted: every sign-in (refresh tokens) at once; its memberships, those projects, its ' +
      'provider keys and the project API tokens it created within seconds; and its access tokens ' +
      'are refused by the gateway within a second.',
    requestBody: { schema: 'DeleteAccountRequest', required: false },
    success: { status: 204, description: 'Deleted' },
    errors: {
      400: "`confirm` is not the account's email (VALIDATION_ERROR)",
      409: 'No `confirm`: nothing deleted; the message names the projects that would go (CONFLICT)',
    },
  },

  // ---- Projects ----
  {
    method: 'post',
    path: '/v1/projects',
    operationId: 'createProject',
    tag: 'Projects',
    summary: 'Create a project',
    description:
      'The creator becomes its owner. A setting of another name than the known ones is a 400 VALIDATION_ERROR naming it.',
    requestBody: { schema: 'CreateProjectRequest', required: true },
    success: { status: 201, description: 'The project', schema: 'Project' },
  },
  {
    method: 'get',
    path: '/v1/projects',
    operationId: 'listProjects',
    tag: 'Projects',
    summary: "The caller's projects, newest first",
    success: { status: 200, description: 'The projects the caller is a member of', schema: 'ProjectList' },
  },
  {
    method: 'get',
    path: PROJECT,
    operationId: 'getProject',
    tag: 'Projects',
    summary: 'A project, with its CLI settings',
    success: { status: 200, description: 'The project', schema: 'Project' },
  },
  {
    method: 'patch',
    path: PROJECT,
    operationId: 'updateProject',
    tag: 'Projects',
    summary: 'Rename a project, change its source locale or settings',
    description:
      'At least one of `name`, `sourceLocale`, `settings`; settings are merged field by field, and a ' +
      'blank or null setting is cleared. A setting of another name is a 400 VALIDATION_ERROR naming it ' +
      '(`settings.fooBar`) and the known ones, and nothing is stored. In `settings.keyRules` each list given (`humanOnly`, ' +
      '`neverTranslate`, `exclude`) replaces that list and a list left out stays; an invalid glob, an ' +
      'empty pattern, a pattern over 500 characters or more than 200 patterns in a list is a 400 ' +
      'VALIDATION_ERROR naming the list, the pattern and the problem, and nothing is stored.',
    requestBody: { schema: 'UpdateProjectRequest', required: true },
    success: { status: 200, description: 'The project as changed', schema: 'Project' },
    errors: { 403: 'Only an owner may change the project, and only with an access token (FORBIDDEN)' },
  },
  {
    method: 'delete',
    path: PROJECT,
    operationId: 'deleteProject',
    tag: 'Projects',
    summary: 'Delete a project and all of its data',
    success: { status: 204, description: 'Deleted, in every service' },
    errors: { 403: 'Only an owner may delete the project, and only with an access token (FORBIDDEN)' },
  },
  {
    method: 'get',
    path: `${PROJECT}/members`,
    operationId: 'listMembers',
    tag: 'Projects',
    summary: 'The members of a project',
    success: { status: 200, description: 'The members', schema: 'MemberList' },
  },
  {
    method: 'post',
    path: `${PROJECT}/members`,
    operationId: 'addMember',
    tag: 'Projects',
    summary: 'Add a member by email',
    requestBody: { schema: 'AddMemberRequest', required: true },
    success: { status: 201, description: 'The new member', schema: 'Member' },
    errors: {
      403: 'Only an owner may add members, and only with an access token (FORBIDDEN)',
      404: 'No such project, or no account has this email: they need to sign up first (NOT_FOUND)',
      409: 'Already a member (CONFLICT)',
    },
  },
  {
    method: 'delete',
    path: `${PROJECT}/members/{userId}`,
    operationId: 'removeMember',
    tag: 'Projects',
    summary: 'Remove a member, or leave the project',
    success: { status: 204, description: 'Removed' },
    errors: {
      403: 'A member who is not an owner may only remove themselves (FORBIDDEN)',
      404: 'No such project, or that user is not a member of it (NOT_FOUND)',
      409: 'The last owner cannot leave: add another owner first, or delete the project (CONFLICT)',
    },
  },
  {
    method: 'patch',
    path: `${PROJECT}/members/{userId}`,
    operationId: 'changeMemberRole',
    tag: 'Projects',
    summary: "Change a member's role",
    description:
      'Owners only. A project always keeps an owner: demoting the last one is refused. The ' +
      'gateway applies the new role within about a second.',
    requestBody: { schema: 'UpdateMemberRequest', required: true },
    success: { status: 200, description: 'The member with the new role', schema: 'Member' },
    errors: {
      403: 'Only an owner may change roles, and only with an access token (FORBIDDEN)',
      404: 'No such project, or that user is not a member of it (NOT_FOUND)',
      409: 'The last owner cannot be demoted: make another member an owner first (CONFLICT)',
    },
  },

  {
    method: 'get',
    path: `${PROJECT}/glossary`,
    operationId: 'getGlossary',
    tag: 'Projects',
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
      schema: 'Glossary',
    },
    errors: { 400: 'A bad limit or cursor (VALIDATION_ERROR)' },
  },
  {
    method: 'post',
    path: `${PROJECT}/glossary`,
    operationId: 'addGlossaryEntry',
    tag: 'Projects',
    summary: 'Add a glossary entry',
    description:
      '`term` is trimmed, 1 to 200 characters; a term is one entry whatever its case (`caseSensitive` ' +
      'says how it is found in source texts). `translations` maps target locale codes (BCP 47, any ' +
      'case, stored canonical) to renderings of at most 1,000 characters; it must be empty when ' +
      '`keepAsIs` is true. `note` at most 1,000 characters.',
    requestBody: { schema: 'CreateGlossaryEntryRequest', required: true },
    success: { status: 201, description: 'The new entry', schema: 'GlossaryEntry' },
    errors: {
      409: 'The glossary already has an entry for this term, ignoring case (CONFLICT)',
      413: 'The glossary would hold more than 10,000 entries or 4 MiB of text; the message says what it holds and what the entry adds (PAYLOAD_TOO_LARGE); or a body over 1 MiB',
    },
  },
  {
    method: 'put',
    path: `${PROJECT}/glossary`,
    operationId: 'importGlossary',
    tag: 'Projects',
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
    requestBody: { schema: 'ReplaceGlossaryRequest', required: true },
    success: {
      status: 200,
      description: 'What the import did, and what the glossary holds after it',
      schema: 'GlossaryImportResult',
    },
    errors: {
      413: 'The glossary would hold more than 10,000 entries or 4 MiB of text — the message says what it holds and what the import would make of it — or the body is over 8 MiB, 250,000 renderings or 1,000 locale codes; nothing is imported (PAYLOAD_TOO_LARGE)',
      503: 'The import waited too long for its turn (other imports ran first): nothing is imported; retry after the seconds Retry-After says (SERVICE_UNAVAILABLE). Also when a service behind the gateway, or its database, is down or restarting',
    },
  },
  {
    method: 'patch',
    path: `${PROJECT}/glossary/{entryId}`,
    operationId: 'updateGlossaryEntry',
    tag: 'Projects',
    summary: 'Change a glossary entry',
    description: 'The fields given replace those of the entry; `translations` replaces the whole map.',
    requestBody: { schema: 'UpdateGlossaryEntryRequest', required: true },
    success: { status: 200, description: 'The entry as changed', schema: 'GlossaryEntry' },
    errors: {
      404: 'No such project, or no such entry in it (NOT_FOUND)',
      409: 'Another entry has this term, ignoring case (CONFLICT)',
      413: 'The change would take the glossary past 4 MiB of text (PAYLOAD_TOO_LARGE); or a body over 1 MiB',
    },
  },
  {
    method: 'delete',
    path: `${PROJECT}/glossary/{entryId}`,
    operationId: 'deleteGlossaryEntry',
    tag: 'Projects',
    summary: 'Delete a glossary entry',
    success: { status: 204, description: 'Deleted' },
    errors: { 404: 'No such project, or no such entry in it (NOT_FOUND)' },
  },

  // ---- Source Files ----
  {
    method: 'put',
    path: `${PROJECT}/source`,
    operationId: 'uploadSource',
    tag: 'Source Files',
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
      schema: 'UploadResult',
      headers: ['ETag'],
    },
    errors: {
      412: 'The source is no longer at the If-Match version (PRECONDITION_FAILED)',
      413: 'The body is over 10 MiB, or holds more than 200,000 keys (PAYLOAD_TOO_LARGE)',
    },
  },
  {
    method: 'get',
    path: `${PROJECT}/source`,
    operationId: 'getSource',
    tag: 'Source Files',
    summary: 'The current source file, its version and pending diff',
    success: { status: 200, description: 'The current source', schema: 'SourceFile', headers: ['ETag'] },
    errors: { 404: 'No such project, or no source uploaded yet (NOT_FOUND)' },
  },
  {
    method: 'get',
    path: `${PROJECT}/source/versions`,
    operationId: 'listSourceVersions',
    tag: 'Source Files',
    summary: 'Every source version, newest first, with counts of changed keys',
    description:
      'Each version also names its renames (a key deleted and another added with the same value and ' +
      'context annotation: translations carried over to the new key) and restores (a key added again ' +
      'with the value and context it had when it was deleted: its last translations come back). ' +
      "Neither changes the version's diff; carried keys are not in `pendingDiff` once the translation " +
      'baseline has their revision.',
    success: { status: 200, description: 'The versions', schema: 'SourceVersionList' },
  },
  {
    method: 'get',
    path: `${PROJECT}/source/versions/{version}`,
    operationId: 'getSourceVersion',
    tag: 'Source Files',
    summary: 'The source file as it was at one version',
    success: { status: 200, description: 'That version', schema: 'SourceFile', headers: ['ETag'] },
    errors: { 404: 'No such project, or no such version (NOT_FOUND)' },
  },
  {
    method: 'get',
    path: `${PROJECT}/source/diff`,
    operationId: 'diffSourceVersions',
    tag: 'Source Files',
    summary: 'The diff between two source versions',
    parameters: [
      {
        name: 'from',
        in: 'query',
        required: true,
        description: 'The older version; 0 is the empty source before any upload',
        schema: versionNumber(0),
      },
      {
        name: 'to',
        in: 'query',
        required: true,
        description: 'The newer version; 0 is the empty source before any upload',
        schema: versionNumber(0),
      },
    ],
    success: {
      status: 200,
      description: 'Keys added, modified and deleted from `from` to `to`',
      schema: 'Diff',
    },
    errors: { 404: 'No such project, or no such version (NOT_FOUND)' },
  },

  // ---- Locales ----
  {
    method: 'get',
    path: `${PROJECT}/locales`,
    operationId: 'listLocales',
    tag: 'Locales',
    summary: 'The target locales and their status',
    success: { status: 200, description: 'The target locales', schema: 'LocaleList' },
  },
  {
    method: 'post',
    path: `${PROJECT}/locales`,
    operationId: 'addLocale',
    tag: 'Locales',
    summary: 'Add a target locale',
    description:
      'Any well-formed BCP 47 code (`de`, `pt-BR`, `zh-Hant`, `es-419`, `sr-Latn`) of at most 35 characters, ' +
      'in any case; it is stored and returned in its canonical form (`zh-hant` → `zh-Hant`).',
    requestBody: { schema: 'AddLocaleRequest', required: true },
    success: { status: 201, description: 'The new target locale', schema: 'Locale' },
    errors: {
      400: "Not a locale code, or the project's source locale (VALIDATION_ERROR), or INVALID_JSON",
      409: 'Already a target locale (CONFLICT)',
    },
  },
  {
    method: 'get',
    path: LOCALE,
    operationId: 'getLocale',
    tag: 'Locales',
    summary: 'A target locale with its missing and outdated keys and the findings of its translations',
    success: { status: 200, description: 'The target locale', schema: 'LocaleDetail' },
    errors: { 404: 'No such project, or not a target locale of it (NOT_FOUND)' },
  },
  {
    method: 'delete',
    path: LOCALE,
    operationId: 'removeLocale',
    tag: 'Locales',
    summary: 'Remove a target locale and its translations',
    success: { status: 204, description: 'Removed' },
    errors: { 404: 'No such project, or not a target locale of it (NOT_FOUND)' },
  },
  {
    method: 'get',
    path: `${LOCALE}/translations`,
    operationId: 'downloadTranslations',
    tag: 'Locales',
    summary: "Download a locale's translations",
    success: {
      status: 200,
      description:
        'The translations, in the source nesting, without annotations; `"@@locale"` set to this locale where the source has `@@locale` (ARB). ' +
        '`provenance` says who wrote each translation: `{"by": "ai", "model": "openai:gpt-4o-mini", "at": <epoch ms>}`, `{"by": "human", "at"}` or `{"by": "memory", "at"}`. ' +
        'The ETag is the revision of these translations: it changes with every upload, with a rename or ' +
        'restore the service carries into them, and with a change of the key rules or the plural-key setting',
      schema: 'Translations',
      headers: ['ETag'],
    },
    errors: { 404: 'No such project, or not a target locale of it (NOT_FOUND)' },
  },
  {
    method: 'put',
    path: `${LOCALE}/translations`,
    operationId: 'uploadTranslations',
    tag: 'Locales',
    summary: "Upload a locale's translations",
    description:
      'The body is the locale file itself, translated from source version `sourceVersion`. Keys the ' +
      'locale does not have for that version (unknown keys, i18next plural forms the language does not ' +
      'use) are ignored and named in the answer (`ignored`, `ignoredCount`).\n\n' +
      "A person's translation (a key not claimed in `@@provenance`) is stored whatever it says, with its " +
      'findings (see `getLocale`): an *error* where an ICU message does not parse where its source does ' +
      'or a plural/select lacks `other`, a source placeholder is lost or one added (`{name}`, ICU ' +
      'arguments, `{{x}}`, `%s`/`%1$s`), or tags are lost, added or unbalanced; a *warning* where a ' +
      'plural lacks a CLDR category of this locale that `other` covers or holds one it never uses, or ' +
      'the value is the source text.\n\n' +
      "A value claimed as the model's or the memory's is held to every rule: it uses its source " +
      "value's placeholders and tags, parses as ICU where the source does, and each " +
      '`plural`/`selectordinal` comes back with every CLDR category of this locale (`other` always; ' +
      '`=0`/`=1` are extra; a language whose only category is `other`, such as ja, may use the argument ' +
      'directly). Any violation stores nothing of the upload.\n\n' +
      'Provenance: the top-level member `"@@provenance": {"ai": {"model": "openai:gpt-4o-mini", "keys": [...]}, ' +
      '"memory": {"keys": [...]}}` (not stored as content; both parts optional) says which keys the model ' +
      'wrote and which were reused from translation memory. Every other key is `human`, unless its value is ' +
      'the one stored before: then it keeps the provenance it had. A claimed key that is not in the upload, ' +
      'a key claimed twice, an unknown member or a model id that is empty or over 200 characters is ' +
      'VALIDATION_ERROR.',
    parameters: [
      {
        name: 'sourceVersion',
        in: 'query',
        required: true,
        description: 'The source version the translations were made from',
        schema: versionNumber(1),
      },
      {
        name: 'If-Match',
        in: 'header',
        required: false,
        description:
          'Optimistic concurrency: the revision of the translations the upload was merged with, as the ' +
          'ETag of their download (`"7"`; also `7`, `W/"7"`, a comma-separated list, or `*` for "the ' +
          'locale exists"). Without it the upload replaces whatever is stored.',
        schema: { type: 'string' },
      },
    ],
    requestBody: { schema: 'LocaleFile', required: true },
    success: {
      status: 200,
      description:
        'The target locale with its new status and counts, and the keys ignored; the ETag is the revision ' +
        'this upload stored',
      schema: 'UploadedLocale',
      headers: ['ETag'],
    },
    errors: {
      400:
        "A rule of the locale file is broken, a model's or memory's value breaks a rule (placeholders " +
        'differ from the source, an ICU message does not parse or lacks plural categories of the locale: ' +
        'the message names the keys and the categories), `@@provenance` is malformed or claims keys not in the upload or twice, or ' +
        'sourceVersion does not exist, or If-Match is not an entity tag (VALIDATION_ERROR); or INVALID_JSON',
      404: 'No such project, or not a target locale of it (NOT_FOUND)',
      409: 'Translations made from a newer source version are already stored: pull and translate again (CONFLICT)',
      412:
        'The translations are no longer at the If-Match revision (PRECONDITION_FAILED; the message names ' +
        'the current one): nothing was stored; download them again, merge and upload',
      413: 'The body is over 10 MiB, or holds more than 200,000 keys (PAYLOAD_TOO_LARGE)',
    },
  },
  {
    method: 'post',
    path: `${LOCALE}/memory`,
    operationId: 'lookUpMemory',
    tag: 'Locales',
    summary: 'Look up translation memory',
    description:
      'For each source text, the stored translation into this locale of an identical text: this ' +
      "project's first, then the most recent of the other projects the caller is a member of (a " +
      'project API token: its own project only). With `near`, up to that many translations of ' +
      'similar texts too (trigram similarity), for at most 100 texts a lookup. A similarity search that ' +
      'takes longer than the server allows (500 ms by default) is given up: the answer then says ' +
      '`"nearTimedOut": true` and every `near` is empty, while exact matches are found as ever. A lookup ' +
      'changes nothing; a read token may do it.',
    requestBody: { schema: 'MemoryLookupRequest', required: true },
    success: { status: 200, description: 'One match per text, in order', schema: 'MemoryLookup' },
    errors: {
      400:
        'No texts, more than 5,000, an empty one or one over 5,000 characters, `near` not 0 to 5, or `near` ' +
        'of 1 or more with more than 100 texts (VALIDATION_ERROR `near: near matches are looked up for at ' +
        'most 100 texts at a time; ask for more texts with near: 0`); or INVALID_JSON',
      404: 'No such project, or not a target locale of it (NOT_FOUND)',
    },
  },

  {
    method: 'get',
    path: `${PROJECT}/keys`,
    operationId: 'browseKeys',
    tag: 'Locales',
    summary: 'Browse keys with their source and translations',
    description:
      "One page of the project's keys, in the source's order (a plural group's forms, each locale's own, " +
      'together at its place), each with its source text, its context description and, per target locale, ' +
      'its value, its state (`missing`, `outdated` or `translated`) and who wrote it (provenance).',
    parameters: [
      {
        name: 'locale',
        in: 'query',
        required: false,
        description: 'Target locales to show, comma-separated (default: all)',
        schema: { type: 'string' },
      },
      {
        name: 'status',
        in: 'query',
        required: false,
        description: 'Only keys in this state in at least one shown locale',
        schema: { type: 'string', enum: ['missing', 'outdated', 'translated'] },
      },
      {
        name: 'q',
        in: 'query',
        required: false,
        description: 'Only keys whose name, source text or a shown value contains this (case-insensitive)',
        schema: { type: 'string', maxLength: 500 },
      },
      {
        name: 'by',
        in: 'query',
        required: false,
        description: 'Only keys that a shown locale has a value of this provenance for',
        schema: { type: 'string', enum: ['ai', 'human', 'memory'] },
      },
      {
        name: 'findings',
        in: 'query',
        required: false,
        description:
          "Only keys whose value in a shown locale has a finding of this severity (`any`: of either); each cell's " +
          '`findings` lists them',
        schema: { type: 'string', enum: ['error', 'warning', 'any'] },
      },
      {
        name: 'offset',
        in: 'query',
        required: false,
        description: 'Matching keys to skip',
        schema: { type: 'integer', minimum: 0, default: 0 },
      },
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: 'Keys on the page',
        schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
      },
    ],
    success: { status: 200, description: 'The page', schema: 'KeyPage' },
    errors: {
      400: 'A locale that is not a target locale, or a bad status, offset or limit (VALIDATION_ERROR)',
    },
  },

  // ---- API Tokens ----
  {
    method: 'post',
    path: `${PROJECT}/tokens`,
    operationId: 'createProjectToken',
    tag: 'API Tokens',
    summary: 'Create a project API token',
    description: 'The full token is in this answer only: it cannot be retrieved again.',
    requestBody: { schema: 'CreateTokenRequest', required: true },
    success: { status: 201, description: 'The token, shown this once', schema: 'CreateTokenResponse' },
    errors: { 409: 'The project holds the most live tokens it may; revoke one first (CONFLICT)' },
  },
  {
    method: 'get',
    path: `${PROJECT}/tokens`,
    operationId: 'listProjectTokens',
    tag: 'API Tokens',
    summary: 'The live project API tokens, newest first',
    success: { status: 200, description: 'The tokens, each with its `tokenPrefix`', schema: 'ApiTokenList' },
  },
  {
    method: 'delete',
    path: `${PROJECT}/tokens/{tokenId}`,
    operationId: 'revokeProjectToken',
    tag: 'API Tokens',
    summary: 'Revoke a project API token',
    success: { status: 204, description: 'Revoked: the token stops working within a second' },
    errors: { 404: 'No such project, or no live token with this id (NOT_FOUND)' },
  },

  // ---- CLI ----
  {
    method: 'get',
    path: '/v1/user/byok',
    operationId: 'listProviderKeys',
    tag: 'CLI',
    summary: "The signed-in user's AI-provider keys, one entry per provider",
    success: { status: 200, description: 'Every provider, with or without a key', schema: 'ProviderKeyList' },
  },
  {
    method: 'get',
    path: '/v1/user/byok/{provider}',
    operationId: 'getProviderKey',
    tag: 'CLI',
    summary: "Read the user's key for a provider, decrypted",
    description:
      'The CLI polls it for a newly added key after it sends the user to the dashboard. ' +
      '`{"hasKey":false,"apiKey":""}` when there is none. Never cached (`Cache-Control: no-store`).',
    success: { status: 200, description: 'Whether there is a key, and the key', schema: 'ByokKeyStatus' },
  },
  {
    method: 'put',
    path: '/v1/user/byok/{provider}',
    operationId: 'storeProviderKey',
    tag: 'CLI',
    summary: "Store the user's key for a provider (encrypted at rest)",
    requestBody: { schema: 'StoreProviderKeyRequest', required: true },
    success: {
      status: 200,
      description: 'Stored; only its last 4 characters are shown',
      schema: 'StoredProviderKey',
    },
  },
  {
    method: 'delete',
    path: '/v1/user/byok/{provider}',
    operationId: 'deleteProviderKey',
    tag: 'CLI',
    summary: "Delete the user's key for a provider",
    success: { status: 204, description: 'Deleted, also when no key was stored' },
  },

  // ---- Meta ----
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
