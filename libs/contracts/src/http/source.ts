/**
 * source-service's HTTP API (Source Files): the query parameters and answers of the source
 * routes. The upload body is the locale file itself (parsed by @tolk/locale-file), and a version
 * in a path is read by source-service's own parser.
 */
import { z } from 'zod';
import { keyRenameSchema, keyRestoreSchema } from '../source-events.js';
import { epochMillis, queryFlag, queryInteger } from './fields.js';

/** The largest source version (Postgres `integer`): versions in paths and queries are at most this. */
export const MAX_SOURCE_VERSION = 2_147_483_647;

// ---- query parameters ----

/** `PUT .../source?dryRun=true`: answer what the upload would do and store nothing. */
export const uploadSourceQuerySchema = z.strictObject({ dryRun: queryFlag() });

const sourceVersion = queryInteger(0, MAX_SOURCE_VERSION, 'a version number (a non-negative integer)');

/** `GET .../source/diff?from=A&to=B`: 0 is the empty source before any upload. */
export const sourceDiffQuerySchema = z.strictObject({ from: sourceVersion, to: sourceVersion });

/** The spec's Diff object, used in the upload answer and as `pendingDiff`. */
export const diffSchema = z.strictObject({
  added: z.array(z.string()).meta({ description: 'Keys that are new' }),
  modified: z.array(z.string()).meta({ description: 'Keys whose value changed' }),
  deleted: z.array(z.string()).meta({ description: 'Keys that were removed' }),
});

export const uploadResponseSchema = z.strictObject({
  version: z.number().int().nonnegative(),
  diff: diffSchema,
  keyCount: z.number().int().nonnegative(),
  needsTranslation: z
    .boolean()
    .meta({ description: 'True when the pending diff holds added or modified keys' }),
});

/** The spec's Source file object. */
export const sourceFileResponseSchema = z.strictObject({
  version: z.number().int().positive(),
  locale: z
    .string()
    .min(2)
    .max(10)
    .regex(/^[a-z]{2,3}(-[A-Z]{2,3})?$/i),
  keyCount: z.number().int().nonnegative(),
  content: z.string().meta({ description: 'The source locale JSON, serialized as a string' }),
  pendingDiff: diffSchema,
  updatedAt: epochMillis(),
});

/** How many renames and restores of each version the version history names. */
export const VERSION_CARRY_OVER_SHOWN = 100;

export const versionListResponseSchema = z.strictObject({
  versions: z.array(
    z.strictObject({
      version: z.number().int().positive(),
      keyCount: z.number().int().nonnegative(),
      added: z.number().int().nonnegative(),
      modified: z.number().int().nonnegative(),
      deleted: z.number().int().nonnegative(),
      createdAt: epochMillis(),
      renamed: z.number().int().nonnegative().meta({
        description:
          'Keys of this version that are renames of deleted keys (their translations carried over)',
      }),
      restored: z.number().int().nonnegative().meta({
        description: 'Keys added again with a value they had before (their last translations restored)',
      }),
      renames: z.array(keyRenameSchema).meta({
        description: `The version's renames, old key to new key (the first ${VERSION_CARRY_OVER_SHOWN})`,
      }),
      restores: z.array(keyRestoreSchema).meta({
        description: `The restored keys with the version whose value they got back (the first ${VERSION_CARRY_OVER_SHOWN})`,
      }),
    }),
  ),
});

/** `GET /internal/projects/{projectId}/source/carry-overs?after=A&through=B`: versions A+1..B. */
export const carryOverQuerySchema = z.strictObject({ after: sourceVersion, through: sourceVersion });

/** Each version in the range that renamed or restored keys, oldest first, with all of them. */
export const carryOverResponseSchema = z.strictObject({
  versions: z.array(
    z.strictObject({
      version: z.number().int().positive(),
      renames: z.array(keyRenameSchema),
      restores: z.array(keyRestoreSchema),
    }),
  ),
});

/**
 * `GET /internal/projects/{projectId}/source/key-characters`: the size of the current version's
 * keys, which key rules are budgeted against (0 and version 0 before the first upload).
 */
export const sourceKeyCharactersResponseSchema = z.strictObject({
  version: z.number().int().nonnegative(),
  keyCount: z.number().int().nonnegative(),
  keyCharacters: z.number().int().nonnegative(),
});

export type DiffResponse = z.infer<typeof diffSchema>;
export type UploadResponse = z.infer<typeof uploadResponseSchema>;
export type SourceFileResponse = z.infer<typeof sourceFileResponseSchema>;
export type VersionListResponse = z.infer<typeof versionListResponseSchema>;
export type CarryOverResponse = z.infer<typeof carryOverResponseSchema>;
export type SourceKeyCharactersResponse = z.infer<typeof sourceKeyCharactersResponseSchema>;
