import { z } from 'zod';
import type { EventType } from './events.js';

const version = z.number().int().nonnegative();
const count = z.number().int().nonnegative();

/**
 * The `data` of the source events: `SourceChanged` (published by source-service) and
 * `TranslationBaselineChanged` (published by locale-service, consumed by source-service).
 * Unknown members are tolerated, as in projectEventDataSchemas.
 */
export const sourceEventDataSchemas = {
  /**
   * A new source version exists. `previousVersion` is `version - 1` (versions are gapless per
   * project), 0 for the first. `added`/`modified`/`deleted` are the numbers of keys of the diff
   * against `previousVersion`, not the keys themselves: a first upload of 200,000 keys must not
   * put megabytes into the outbox and the broker. A consumer that needs the keys reads the diff
   * from source-service. A version whose key diff is empty (only annotations changed) still
   * counts as a change.
   */
  SourceChanged: z.object({
    projectId: z.string().min(1),
    version: version.min(1),
    previousVersion: version,
    keyCount: count,
    added: count,
    modified: count,
    deleted: count,
  }),
  /**
   * The translation baseline of a project moved: the lowest `syncedVersion` among its target
   * locales, 0 when there are none (DESIGN §4). It may go down (a new locale starts at 0), so a
   * consumer cannot keep "the highest version"; it keeps the value with the highest `sequence`
   * instead. `sequence` is a number locale-service makes strictly increasing per project in the
   * order its baseline changes commit (e.g. a counter on the project's row, incremented in the
   * transaction that changes the baseline). A duplicate or an older event (lower or equal
   * sequence) changes nothing.
   */
  TranslationBaselineChanged: z.object({
    projectId: z.string().min(1),
    baselineVersion: version,
    sequence: z.number().int().nonnegative(),
  }),
} satisfies Partial<Record<EventType, z.ZodType>>;

export type SourceEventType = keyof typeof sourceEventDataSchemas;
export type SourceEventData<T extends SourceEventType> = z.infer<(typeof sourceEventDataSchemas)[T]>;

/**
 * source-service's internal `GET /internal/projects/{projectId}/source/versions/{version|current}`
 * answers with the version's stored document (gzip JSON with each key's revision) and names the
 * version in this header.
 */
export const SOURCE_VERSION_HEADER = 'x-tolk-source-version';
