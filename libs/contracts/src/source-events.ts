import { z } from 'zod';
import type { EventType } from './events.js';

const version = z.number().int().nonnegative();
const count = z.number().int().nonnegative();
const key = z.string().min(1);

/** A key renamed in a version (DESIGN §13): `from` deleted, `to` added with the same value and context. */
export const keyRenameSchema = z.strictObject({ from: key, to: key });
/**
 * A key added again with the value and context it had when it was last deleted: `version` is the
 * revision it gets back (the version in which it got that value), which its retired translations
 * were made for.
 */
export const keyRestoreSchema = z.strictObject({ key, version: version.min(1) });
export type KeyRename = z.infer<typeof keyRenameSchema>;
export type KeyRestore = z.infer<typeof keyRestoreSchema>;

/**
 * At most this many renames and restores together travel in one SourceChanged: the outbox holds
 * no megabytes. A version with more names them in `renamed`/`restored` and a consumer reads them
 * from source-service's internal carry-over route.
 */
export const CARRY_OVER_EVENT_LIMIT = 1_000;

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
    /**
     * The version's renames and restores (DESIGN §13), whose translations a consumer carries over.
     * Absent in events written before they existed (none). `renamed`/`restored` are their numbers;
     * the lists hold them all when their sum is at most CARRY_OVER_EVENT_LIMIT, else they are
     * empty and the consumer reads them from source-service
     * (`GET /internal/projects/{projectId}/source/carry-overs?after&through`).
     */
    renamed: count.optional(),
    restored: count.optional(),
    renames: z.array(keyRenameSchema).max(CARRY_OVER_EVENT_LIMIT).optional(),
    restores: z.array(keyRestoreSchema).max(CARRY_OVER_EVENT_LIMIT).optional(),
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
