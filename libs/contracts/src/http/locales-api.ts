/** The public API of locale-service: target locales, their translations, translation memory and the key browser. */
import { READ_AND_UPLOAD_TOKENS, READ_TOKENS, type ServiceApi } from './api-contract.js';
import { versionNumberSchema } from './source-api.js';
import {
  addLocaleBodySchema,
  browseKeysResponseSchema,
  localeDetailResponseSchema,
  localeListResponseSchema,
  localeResponseSchema,
  memoryLookupBodySchema,
  memoryLookupResponseSchema,
  translationsResponseSchema,
  uploadTranslationsResponseSchema,
} from './locales.js';

export const localesApi: ServiceApi = {
  tag: 'Locales',
  requestSchemas: {
    AddLocaleRequest: addLocaleBodySchema,
    MemoryLookupRequest: memoryLookupBodySchema,
  },
  responseSchemas: {
    Locale: localeResponseSchema,
    UploadedLocale: uploadTranslationsResponseSchema,
    LocaleDetail: localeDetailResponseSchema,
    LocaleList: localeListResponseSchema,
    Translations: translationsResponseSchema,
    MemoryLookup: memoryLookupResponseSchema,
    KeyPage: browseKeysResponseSchema,
  },
  routes: [
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
      tokens: READ_AND_UPLOAD_TOKENS,
    },
    // The translation browser: every key with its source and each locale's value and state.
    {
      path: '/v1/projects/:projectId/keys',
      service: 'locale',
      access: 'user',
      scope: 'project',
      tokens: READ_TOKENS,
    },
  ],
  operations: {
    'GET /v1/projects/{projectId}/locales': {
      operationId: 'listLocales',
      summary: 'The target locales and their status',
      success: { status: 200, description: 'The target locales', schema: localeListResponseSchema },
    },
    'POST /v1/projects/{projectId}/locales': {
      operationId: 'addLocale',
      summary: 'Add a target locale',
      description:
        'Any well-formed BCP 47 code (`de`, `pt-BR`, `zh-Hant`, `es-419`, `sr-Latn`) of at most 35 characters, ' +
        'in any case; it is stored and returned in its canonical form (`zh-hant` → `zh-Hant`).',
      requestBody: { schema: addLocaleBodySchema, required: true },
      success: { status: 201, description: 'The new target locale', schema: localeResponseSchema },
      errors: {
        400: "Not a locale code, or the project's source locale (VALIDATION_ERROR), or INVALID_JSON",
        409: 'Already a target locale (CONFLICT)',
      },
    },
    'GET /v1/projects/{projectId}/locales/{locale}': {
      operationId: 'getLocale',
      summary: 'A target locale with its missing and outdated keys and the findings of its translations',
      success: { status: 200, description: 'The target locale', schema: localeDetailResponseSchema },
      errors: { 404: 'No such project, or not a target locale of it (NOT_FOUND)' },
    },
    'DELETE /v1/projects/{projectId}/locales/{locale}': {
      operationId: 'removeLocale',
      summary: 'Remove a target locale and its translations',
      success: { status: 204, description: 'Removed' },
      errors: { 404: 'No such project, or not a target locale of it (NOT_FOUND)' },
    },
    'GET /v1/projects/{projectId}/locales/{locale}/translations': {
      operationId: 'downloadTranslations',
      summary: "Download a locale's translations",
      success: {
        status: 200,
        description:
          'The translations, in the source nesting, without annotations; `"@@locale"` set to this locale where the source has `@@locale` (ARB). ' +
          '`provenance` says who wrote each translation: `{"by": "ai", "model": "openai:gpt-4o-mini", "at": <epoch ms>}`, `{"by": "human", "at"}` or `{"by": "memory", "at"}`. ' +
          'The ETag is the revision of these translations: it changes with every upload, with a rename or ' +
          'restore the service carries into them, and with a change of the key rules or the plural-key setting',
        schema: translationsResponseSchema,
        headers: ['ETag'],
      },
      errors: { 404: 'No such project, or not a target locale of it (NOT_FOUND)' },
    },
    'PUT /v1/projects/{projectId}/locales/{locale}/translations': {
      operationId: 'uploadTranslations',
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
          schema: versionNumberSchema(1),
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
        schema: uploadTranslationsResponseSchema,
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
    'POST /v1/projects/{projectId}/locales/{locale}/memory': {
      operationId: 'lookUpMemory',
      summary: 'Look up translation memory',
      description:
        'For each source text, the stored translation into this locale of an identical text: this ' +
        "project's first, then the most recent of the other projects the caller is a member of (a " +
        'project API token: its own project only). With `near`, up to that many translations of ' +
        'similar texts too (trigram similarity), for at most 100 texts a lookup. A similarity search that ' +
        'takes longer than the server allows (500 ms by default) is given up: the answer then says ' +
        '`"nearTimedOut": true` and every `near` is empty, while exact matches are found as ever. A lookup ' +
        'changes nothing; a read token may do it.',
      requestBody: { schema: memoryLookupBodySchema, required: true },
      success: {
        status: 200,
        description: 'One match per text, in order',
        schema: memoryLookupResponseSchema,
      },
      errors: {
        400:
          'No texts, more than 5,000, an empty one or one over 5,000 characters, `near` not 0 to 5, or `near` ' +
          'of 1 or more with more than 100 texts (VALIDATION_ERROR `near: near matches are looked up for at ' +
          'most 100 texts at a time; ask for more texts with near: 0`); or INVALID_JSON',
        404: 'No such project, or not a target locale of it (NOT_FOUND)',
      },
    },
    'GET /v1/projects/{projectId}/keys': {
      operationId: 'browseKeys',
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
      success: { status: 200, description: 'The page', schema: browseKeysResponseSchema },
      errors: {
        400: 'A locale that is not a target locale, or a bad status, offset or limit (VALIDATION_ERROR)',
      },
    },
  },
};
