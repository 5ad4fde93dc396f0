import type { JsonSchema } from './api-contract.js';

/**
 * Bodies no zod schema describes: a locale file is checked by @tolk/locale-file's parser (leaves,
 * nesting, annotations, limits), which says more than a schema could.
 */
export const LOCALE_FILE_SCHEMAS: Record<'LocaleFile' | 'LocaleFileValue', JsonSchema> = {
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
    additionalProperties: { $ref: '#/components/schemas/LocaleFileValue' },
  },
  LocaleFileValue: {
    anyOf: [
      // The default limits of a value (DEFAULT_SOURCE_LIMITS of @tolk/locale-file; a test holds them equal).
      {
        type: 'string',
        maxLength: 100_000,
        description: 'At most 1,000 opening braces `{` (the default limits)',
      },
      { $ref: '#/components/schemas/LocaleFile' },
      { type: 'array', items: { $ref: '#/components/schemas/LocaleFileValue' } },
    ],
  },
};
