/**
 * source-service's HTTP API (Source Files): the answers of the source routes. The upload body is
 * the locale file itself (parsed by @tolk/locale-file), and versions in paths and queries are
 * read by source-service's own parsers, so no request schema lives here.
 */
import { z } from 'zod';
import { epochMillis } from './fields.js';

/** The largest source version (Postgres `integer`): versions in paths and queries are at most this. */
export const MAX_SOURCE_VERSION = 2_147_483_647;

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

export const versionListResponseSchema = z.strictObject({
  versions: z.array(
    z.strictObject({
      version: z.number().int().positive(),
      keyCount: z.number().int().nonnegative(),
      added: z.number().int().nonnegative(),
      modified: z.number().int().nonnegative(),
      deleted: z.number().int().nonnegative(),
      createdAt: epochMillis(),
    }),
  ),
});

export type DiffResponse = z.infer<typeof diffSchema>;
export type UploadResponse = z.infer<typeof uploadResponseSchema>;
export type SourceFileResponse = z.infer<typeof sourceFileResponseSchema>;
export type VersionListResponse = z.infer<typeof versionListResponseSchema>;
