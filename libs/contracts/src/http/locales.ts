/**
 * locale-service's HTTP API (Locales): adding a target locale, the query of a translation upload
 * and the answers of the locale routes. Translation uploads are the locale file itself (parsed by
 * @tolk/locale-file), and the locale in the path is read by locale-service's own parser.
 */
import { z } from 'zod';
import { MAX_TARGET_LOCALE_LENGTH, TARGET_LOCALE_PATTERN } from '../locale.js';
import { epochMillis, queryInteger, targetLocaleCode } from './fields.js';
import { MAX_SOURCE_VERSION } from './source.js';

// ---- requests ----

/** `PUT .../translations?sourceVersion=N`: the source version the translations were made from. */
export const uploadTranslationsQuerySchema = z.strictObject({
  sourceVersion: queryInteger(
    1,
    MAX_SOURCE_VERSION,
    'the source version the translations were made from (a positive integer)',
  ),
});

/**
 * The member of a translation upload in which the CLI says who wrote which keys (DESIGN §13):
 * top-level file metadata, never stored as content. Keys it does not claim are `human`, unless
 * their value is the one stored before (then they keep the provenance they had).
 */
export const PROVENANCE_MEMBER = '@@provenance';

/** The longest model id a claim may name (`<provider>:<model>`). */
export const MAX_MODEL_ID_LENGTH = 200;

/** The message of an object's issues: an unknown member named, or what the object should be. */
function objectIssue(members: string) {
  return (issue: z.core.$ZodRawIssue) =>
    issue.code === 'unrecognized_keys'
      ? `unknown member ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}: only ${members} may be given`
      : `must be an object with ${members}`;
}

const claimedKeys = z
  .array(z.string({ error: 'must be a string (a key of the upload)' }), {
    error: 'must be an array of the keys (strings)',
  })
  .meta({ description: 'Keys of this upload (flattened, as `home.title`)' });

/** `"@@provenance"` of `PUT .../translations`: the keys the model wrote, and those reused from memory. */
export const provenanceClaimSchema = z
  .strictObject(
    {
      ai: z
        .strictObject(
          {
            model: z
              .string({ error: 'must be a string: the model, as `<provider>:<model>`' })
              .min(1, { error: 'must not be empty: the model, as `<provider>:<model>`' })
              .max(MAX_MODEL_ID_LENGTH, { error: `must be at most ${MAX_MODEL_ID_LENGTH} characters` })
              .meta({ description: 'The model that wrote them, e.g. `openai:gpt-4o-mini`' }),
            keys: claimedKeys,
          },
          { error: objectIssue('model and keys') },
        )
        .optional(),
      memory: z.strictObject({ keys: claimedKeys }, { error: objectIssue('keys') }).optional(),
    },
    { error: objectIssue('ai and memory') },
  )
  .meta({
    description:
      'Who wrote which keys of the upload: `ai` (the model, and the keys it wrote) and `memory` (keys ' +
      'reused from translation memory). Every other key is `human`, unless its value is the one stored ' +
      'before: then it keeps its provenance.',
  });

export type ProvenanceClaim = z.infer<typeof provenanceClaimSchema>;

/** `POST .../locales`: a BCP 47 code in any case, stored in its canonical form (DESIGN §11). */
export const addLocaleBodySchema = z.object({ locale: targetLocaleCode }, { error: 'must be a JSON object' });

// ---- responses ----

/** A target locale as the answers give it: canonical (`zh-Hant`, `es-419`). */
const targetLocale = z.string().max(MAX_TARGET_LOCALE_LENGTH).regex(TARGET_LOCALE_PATTERN);

export const localeResponseSchema = z.strictObject({
  locale: targetLocale,
  status: z.enum(['behind', 'up_to_date']),
  syncedVersion: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'The source version these translations have caught up with' }),
  sourceVersion: z.number().int().nonnegative().meta({ description: 'The current source version' }),
  keyCount: z.number().int().nonnegative().meta({
    description:
      "The locale's keys: the source's, with each i18next plural group as the locale's own CLDR forms",
  }),
  translatedCount: z.number().int().nonnegative().meta({
    description: "Keys with a current translation: a person's translation with findings counts as translated",
  }),
  missingCount: z.number().int().nonnegative(),
  outdatedCount: z.number().int().nonnegative(),
  errorCount: z.number().int().nonnegative().meta({
    description: 'Keys whose translation has at least one finding of severity `error`',
  }),
  warningCount: z.number().int().nonnegative().meta({
    description: 'Keys whose translation has findings of severity `warning` and none of severity `error`',
  }),
  updatedAt: epochMillis(),
});

/** The kinds of finding in a person's translation (DESIGN §15). */
export const FINDING_KINDS = [
  'icu',
  'placeholder',
  'markup',
  'plural',
  'copy',
  'max-length',
  'glossary',
] as const;
export const FINDING_SEVERITIES = ['error', 'warning'] as const;
export const findingKindSchema = z.enum(FINDING_KINDS);
export const findingSeveritySchema = z.enum(FINDING_SEVERITIES);

/** A finding of one key's translation, as a key's own list gives it. */
export const keyFindingSchema = z.strictObject({
  kind: findingKindSchema.meta({
    description:
      '`icu`: does not parse where the source does, or a plural/select without `other`; `placeholder`: a ' +
      'source placeholder lost or one added; `markup`: tags lost, added or unbalanced; `plural`: a CLDR ' +
      'category the language has but the message lacks (`other` covers it), or one it never uses; `copy`: ' +
      'the source text as it is',
  }),
  severity: findingSeveritySchema.meta({
    description: '`error`: breaks or misleads at run time; `warning`: tolerated, or perhaps intended',
  }),
  message: z.string(),
});

/** A finding of a locale's translation (DESIGN §15). */
export const findingSchema = keyFindingSchema.extend({
  key: z.string().meta({ description: "The locale's key (flattened, as `home.title`)" }),
});

export const localeDetailResponseSchema = localeResponseSchema.extend({
  missing: z.array(z.string()).meta({
    description: "The locale's keys with no translation (a plural group's forms are the locale's own)",
  }),
  outdated: z.array(z.string()).meta({
    description:
      'Keys whose source changed since they were translated (any change to a plural group outdates all its forms)',
  }),
  findings: z.array(findingSchema).meta({
    description:
      "The findings of the stored translations, as judged when they were uploaded, of the current source's " +
      'keys only, in key order',
  }),
});

/** The most ignored keys an upload's answer names. */
export const MAX_IGNORED_NAMED = 100;

/** `PUT .../translations`: the locale, and the keys of the upload it does not have. */
export const uploadTranslationsResponseSchema = localeResponseSchema.extend({
  ignored: z
    .array(z.string())
    .max(MAX_IGNORED_NAMED)
    .meta({
      description:
        `Keys of the upload the locale does not have for the source version it was made from (unknown keys, ` +
        `plural forms the language does not use): not stored. At most ${MAX_IGNORED_NAMED} are named`,
    }),
  ignoredCount: z.number().int().nonnegative().meta({ description: 'How many keys were ignored' }),
});

export const localeListResponseSchema = z.strictObject({ locales: z.array(localeResponseSchema) });

/** Who wrote a translation and when (DESIGN §13). */
export const keyProvenanceSchema = z.strictObject({
  by: z.enum(['ai', 'human', 'memory']).meta({
    description: '`ai`: written by a model; `human`: by a person; `memory`: reused from translation memory',
  }),
  model: z
    .string()
    .min(1)
    .max(MAX_MODEL_ID_LENGTH)
    .optional()
    .meta({ description: 'With `ai` only: the model, as `<provider>:<model>` (`openai:gpt-4o-mini`)' }),
  at: epochMillis().meta({ description: 'When the upload that wrote it was stored (epoch milliseconds)' }),
});

/** What says that a stored translation's writer is not known. */
const UNKNOWN_WRITER_DESCRIPTION =
  'stored before Tolk kept who wrote each translation (or carried over from such a translation by a ' +
  "rename or a restore): who wrote it is not known, and it may be a person's";

/** Who wrote a stored translation as the translation browser shows it: known, or `unknown`. */
export const shownProvenanceSchema = z.union([
  keyProvenanceSchema,
  z.strictObject({
    by: z.literal('unknown').meta({ description: `\`unknown\`: ${UNKNOWN_WRITER_DESCRIPTION}` }),
  }),
]);

/** The writers the translation browser filters by. */
export const WRITERS = ['ai', 'human', 'memory', 'unknown'] as const;

export const translationsResponseSchema = z.strictObject({
  locale: targetLocale,
  syncedVersion: z.number().int().nonnegative(),
  translatedFrom: z
    .number()
    .int()
    .nonnegative()
    .meta({
      description:
        'The source version the stored translations were uploaded for (0: none uploaded); an upload of ' +
        'edits to them is made from this version',
    }),
  content: z.string().meta({ description: "The translations as a JSON string, in the source's nesting" }),
  updatedAt: epochMillis(),
  provenance: z.record(z.string(), keyProvenanceSchema).meta({
    description:
      'Key of `content` (flattened, as `home.title`) → who wrote its translation, in the order of ' +
      '`content`, where it is known (see `unknownWriters`).',
  }),
  // A member of its own rather than an entry `{"by": "unknown"}` of `provenance`: a CLI that holds
  // answers to its schema takes newer members away, but refuses a writer it does not know. Always
  // sent; optional for a CLI talking to a server from before it.
  unknownWriters: z
    .array(z.string())
    .optional()
    .meta({
      description: `Keys of \`content\` whose translation was ${UNKNOWN_WRITER_DESCRIPTION}, in the order of \`content\``,
    }),
});

export type LocaleResponse = z.infer<typeof localeResponseSchema>;
export type LocaleDetailResponse = z.infer<typeof localeDetailResponseSchema>;
export type UploadTranslationsResponse = z.infer<typeof uploadTranslationsResponseSchema>;
export type FindingResponse = z.infer<typeof findingSchema>;
export type LocaleListResponse = z.infer<typeof localeListResponseSchema>;
export type TranslationsResponse = z.infer<typeof translationsResponseSchema>;

// ---- translation memory (DESIGN §13) ----

/** The most texts one memory lookup may ask for. */
export const MAX_MEMORY_TEXTS = 5000;
/** The longest text a memory lookup looks up (longer texts are never stored either). */
export const MAX_MEMORY_TEXT_LENGTH = 5000;
/** The most near matches a lookup returns per text. */
export const MAX_MEMORY_NEAR = 5;
/** The most texts one lookup may ask near matches for (each is a trigram search). */
export const MAX_MEMORY_NEAR_TEXTS = 100;

/**
 * `POST .../locales/{locale}/memory`: source texts whose translations into the locale are
 * wanted. `near` asks for up to that many similar texts' translations per text as well (0, the
 * default: only identical texts).
 */
export const memoryLookupBodySchema = z
  .strictObject(
    {
      texts: z
        .array(
          z
            .string({ error: 'must be strings' })
            .min(1, { error: 'must not be empty' })
            .max(MAX_MEMORY_TEXT_LENGTH, { error: `must be at most ${MAX_MEMORY_TEXT_LENGTH} characters` }),
          { error: 'must be an array of source texts' },
        )
        .min(1, { error: 'must hold at least one text' })
        .max(MAX_MEMORY_TEXTS, { error: `must hold at most ${MAX_MEMORY_TEXTS} texts` }),
      near: z
        .number({ error: `must be a whole number from 0 to ${MAX_MEMORY_NEAR}` })
        .int({ error: `must be a whole number from 0 to ${MAX_MEMORY_NEAR}` })
        .min(0, { error: `must be a whole number from 0 to ${MAX_MEMORY_NEAR}` })
        .max(MAX_MEMORY_NEAR, { error: `must be a whole number from 0 to ${MAX_MEMORY_NEAR}` })
        .optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown member${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')} (texts and near are known)`
          : 'must be a JSON object',
    },
  )
  .refine((body) => !body.near || body.texts.length <= MAX_MEMORY_NEAR_TEXTS, {
    path: ['near'],
    error: `near matches are looked up for at most ${MAX_MEMORY_NEAR_TEXTS} texts at a time; ask for more texts with near: 0`,
  })
  // The refinement above in the document's terms: with `near` of 1 or more, `texts` holds at most
  // MAX_MEMORY_NEAR_TEXTS (zod has no JSON Schema for a refinement).
  .meta({
    if: { properties: { near: { type: 'integer', minimum: 1 } }, required: ['near'] },
    then: { properties: { texts: { type: 'array', maxItems: MAX_MEMORY_NEAR_TEXTS } } },
    description:
      `Up to ${MAX_MEMORY_TEXTS} source texts; with \`near\` of 1 or more, up to ${MAX_MEMORY_NEAR_TEXTS} ` +
      '(each is a similarity search)',
  });

const memoryTranslation = z.strictObject({
  translation: z.string(),
  key: z.string().meta({ description: 'The key the translation was stored for' }),
  projectId: z
    .string()
    .meta({ description: 'The project it comes from: this one, or another the caller can read' }),
  updatedAt: epochMillis(),
});

export const memoryLookupResponseSchema = z.strictObject({
  // Sent only when true: a client that holds answers to a strict schema of its own (the CLI before
  // this member) takes an answer without it as before, and one with it as a failed lookup — no
  // examples either way, which is what such an answer has.
  nearTimedOut: z
    .literal(true)
    .optional()
    .meta({
      description:
        'Present (true) only when near matches were asked for and the search took longer than the server ' +
        'allows (500 ms by default) and was given up: every `near` is then empty because the search did not ' +
        'finish, not because nothing similar is stored. Exact matches are looked up in full either way',
    }),
  matches: z.array(
    z.strictObject({
      text: z.string(),
      exact: memoryTranslation.nullable().meta({
        description:
          "The translation of an identical source text: this project's first, then the most recent of the caller's other projects",
      }),
      near: z.array(
        memoryTranslation.extend({
          source: z.string().meta({ description: 'The similar source text that was translated' }),
          similarity: z.number().min(0).max(1).meta({ description: 'pg_trgm similarity, 0 to 1' }),
        }),
      ),
    }),
  ),
});

export type MemoryLookupBody = z.infer<typeof memoryLookupBodySchema>;
export type MemoryLookupResponse = z.infer<typeof memoryLookupResponseSchema>;

// ---- the translation browser (DESIGN §13) ----

/** The most rows one page of the translation browser holds. */
export const MAX_BROWSE_LIMIT = 200;

/**
 * `GET /v1/projects/{projectId}/keys`: one page of the project's keys with their source text and
 * each target locale's value and state. `locale`: a comma-separated list of target locales (all,
 * when absent); `status`: only keys in that state in at least one of them; `by`: only keys one
 * of them has a value of that provenance for; `findings`: only keys with a finding of that severity
 * (`any`: of either) in one of them; `q`: only keys whose name, source text or a shown value
 * contains it (case-insensitive).
 */
export const browseKeysQuerySchema = z.strictObject({
  locale: z
    .string({ error: 'must be a comma-separated list of target locales' })
    .max(2000, { error: 'must be at most 2000 characters' })
    .optional(),
  status: z
    .enum(['missing', 'outdated', 'translated'], { error: 'must be missing, outdated or translated' })
    .optional(),
  q: z.string({ error: 'must be a string' }).max(500, { error: 'must be at most 500 characters' }).optional(),
  by: z.enum(WRITERS, { error: 'must be ai, human, memory or unknown' }).optional(),
  findings: z.enum(['error', 'warning', 'any'], { error: 'must be error, warning or any' }).optional(),
  offset: queryInteger(0, 10_000_000, 'a whole number from 0').optional(),
  limit: queryInteger(1, MAX_BROWSE_LIMIT, `a whole number from 1 to ${MAX_BROWSE_LIMIT}`).optional(),
});

export const keyStateSchema = z.enum(['missing', 'outdated', 'translated']);

export const browseKeysResponseSchema = z.strictObject({
  sourceVersion: z.number().int().nonnegative(),
  locales: z.array(targetLocale).meta({ description: 'The locales shown, in the order they were added' }),
  total: z.number().int().nonnegative().meta({ description: 'Keys matching the filters, on every page' }),
  offset: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  keys: z.array(
    z.strictObject({
      key: z.string(),
      source: z.string().nullable().meta({
        description:
          "The source text: for a plural form the source doesn't have (Polish `_few`), its group's `other` form",
      }),
      description: z.string().nullable().meta({ description: 'The context annotation, if any' }),
      locales: z
        .record(
          z.string(),
          z.strictObject({
            value: z.string().nullable(),
            status: keyStateSchema,
            provenance: shownProvenanceSchema.nullable().meta({
              description: 'Who wrote the stored value; null when none is stored',
            }),
            findings: z.array(keyFindingSchema).meta({
              description: 'The findings of the stored value, as judged when it was uploaded (empty: none)',
            }),
          }),
        )
        .meta({
          description: 'Per shown locale; a locale that has no such key (another plural form) is absent',
        }),
    }),
  ),
});

export type BrowseKeysResponse = z.infer<typeof browseKeysResponseSchema>;
export type KeyProvenance = z.infer<typeof keyProvenanceSchema>;
export type ShownProvenance = z.infer<typeof shownProvenanceSchema>;
