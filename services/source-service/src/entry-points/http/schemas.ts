import { MAX_SOURCE_VERSION as MAX_VERSION } from '@tolk/contracts';
import { ValidationError } from '@tolk/errors';
import { parseIfMatch } from '@tolk/http';
import type { ExpectedVersion } from '../../domain/upload-source.js';

// ---- requests ----

/** A version number in a path: a non-negative decimal integer, nothing else. */
export function parseVersion(value: unknown, name: string): number {
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value) || Number(value) > MAX_VERSION) {
    throw new ValidationError(`${name}: must be a version number (a non-negative integer)`);
  }
  return Number(value);
}

/**
 * `If-Match`: `"3"` (the ETag GET returns), also `3` and `W/"3"`, a comma-separated list of them,
 * or `*` (some version exists). `"0"` means "nothing uploaded yet".
 */
export function parseExpectedVersion(value: string | undefined): ExpectedVersion | undefined {
  return parseIfMatch(value, 'a source version', MAX_VERSION);
}

// ---- responses: in @tolk/contracts, so the gateway's OpenAPI document is generated from them ----

export {
  carryOverQuerySchema,
  diffSchema,
  sourceDiffQuerySchema,
  uploadSourceQuerySchema,
  sourceFileResponseSchema,
  uploadResponseSchema,
  versionListResponseSchema,
  type CarryOverResponse,
  type DiffResponse,
  type SourceKeyCharactersResponse,
  type SourceFileResponse,
  type UploadResponse,
  type VersionListResponse,
} from '@tolk/contracts';
