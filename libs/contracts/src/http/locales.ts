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
  translatedCount: z.number().int().nonnegative(),
  missingCount: z.number().int().nonnegative(),
  outdatedCount: z.number().int().nonnegative(),
  updatedAt: epochMillis(),
});

export const localeDetailResponseSchema = localeResponseSchema.extend({
  missing: z.array(z.string()).meta({
    description: "The locale's keys with no translation (a plural group's forms are the locale's own)",
  }),
  outdated: z.array(z.string()).meta({
    description:
      'Keys whose source changed since they were translated (any change to a plural group outdates all its forms)',
  }),
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
      '`content`. Keys stored before provenance was kept are absent.',
  }),
});

export type LocaleResponse = z.infer<typeof localeResponseSchema>;
export type LocaleDetailResponse = z.infer<typeof localeDetailResponseSchema>;
export type LocaleListResponse = z.infer<typeof localeListResponseSchema>;
export type TranslationsResponse = z.infer<typeof translationsResponseSchema>;
export type KeyProvenance = z.infer<typeof keyProvenanceSchema>;
