import { z } from 'zod';
import { ValidationError } from '@tolk/http';
import type { ExpectedVersion } from '../../domain/sources.js';

const MAX_VERSION = 2_147_483_647;

// ---- requests ----

/** A version number in a path or query: a non-negative decimal integer, nothing else. */
export function parseVersion(value: unknown, name: string): number {
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value) || Number(value) > MAX_VERSION) {
    throw new ValidationError(`${name}: must be a version number (a non-negative integer)`);
  }
  return Number(value);
}

/** `?dryRun=true|false`; absent is false. */
export function parseDryRun(value: unknown): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new ValidationError('query.dryRun: must be true or false');
}

const ENTITY_TAG = /^(?:W\/)?"(\d{1,10})"$|^(\d{1,10})$/;

/**
 * `If-Match`: `"3"` (the ETag GET returns), also `3` and `W/"3"`, a comma-separated list of them,
 * or `*` (some version exists). `"0"` means "nothing uploaded yet".
 */
export function parseIfMatch(value: string | undefined): ExpectedVersion | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '*') return 'any';
  const versions: number[] = [];
  for (const part of trimmed.split(',')) {
    const match = ENTITY_TAG.exec(part.trim());
    const digits = match?.[1] ?? match?.[2];
    if (digits === undefined || Number(digits) > MAX_VERSION) {
      throw new ValidationError('If-Match: must be a source version as an entity tag, e.g. "3", or *');
    }
    versions.push(Number(digits));
  }
  return versions;
}

// ---- responses ----

export const diffSchema = z.strictObject({
  added: z.array(z.string()),
  modified: z.array(z.string()),
  deleted: z.array(z.string()),
});

export const uploadResponseSchema = z.strictObject({
  version: z.number().int().nonnegative(),
  diff: diffSchema,
  keyCount: z.number().int().nonnegative(),
  needsTranslation: z.boolean(),
});

export const sourceFileResponseSchema = z.strictObject({
  version: z.number().int().positive(),
  locale: z
    .string()
    .min(2)
    .max(10)
    .regex(/^[a-z]{2,3}(-[A-Z]{2,3})?$/i),
  keyCount: z.number().int().nonnegative(),
  content: z.string(),
  pendingDiff: diffSchema,
  updatedAt: z.number().int(),
});

export const versionListResponseSchema = z.strictObject({
  versions: z.array(
    z.strictObject({
      version: z.number().int().positive(),
      keyCount: z.number().int().nonnegative(),
      added: z.number().int().nonnegative(),
      modified: z.number().int().nonnegative(),
      deleted: z.number().int().nonnegative(),
      createdAt: z.number().int(),
    }),
  ),
});

export type DiffResponse = z.infer<typeof diffSchema>;
export type UploadResponse = z.infer<typeof uploadResponseSchema>;
export type SourceFileResponse = z.infer<typeof sourceFileResponseSchema>;
export type VersionListResponse = z.infer<typeof versionListResponseSchema>;
