import type { KeyRename, KeyRestore } from '@tolk/contracts';
import type { Queryable } from '@tolk/db';
import { decodeStoredEntries, encodeStoredEntries } from '@tolk/locale-file';
import type { Logger } from '@tolk/logger';
import type { LocalesRepository } from '../data-access/locales-repository.js';
import type {
  RetiredTranslation,
  RetiredTranslationsRepository,
} from '../data-access/retired-translations-repository.js';
import type { SourceClient } from '../data-access/source-client.js';
import {
  decodeProvenance,
  encodeProvenance,
  type ClaimedKeys,
  type Provenance,
  type ProvenanceMap,
} from './provenance.js';

type Claim = Omit<Provenance, 'at'>;
/** A stored translation with who wrote it, when known. */
type Written = { translation: string; provenance: Provenance | undefined };

function provenanceOfWritten(written: ReadonlyMap<string, Written>): Map<string, Provenance> {
  const map = new Map<string, Provenance>();
  for (const [key, entry] of written) if (entry.provenance) map.set(key, entry.provenance);
  return map;
}

/** What one source version carries over from earlier ones (DESIGN §13). */
export type CarryOverStep = {
  version: number;
  renames: readonly KeyRename[];
  restores: readonly KeyRestore[];
};

/**
 * Applies the renames and restores of `steps` (in version order) to a locale's per-key map —
 * its translations, or anything else kept per key beside them (provenance) — in place:
 * - a rename gives the new key the old key's value (the old key keeps its own: it is no source
 *   key any more, and is retired with the next upload); an old key without a value leaves the
 *   new key without one, whatever an earlier life of that key left behind;
 * - a restore gives the key back what `retired(key, version)` kept of it, made for the source
 *   value of revision `version`, unless the map still has a value for it (never replaced since
 *   the key was deleted, so made for that very value, or older and then outdated by revision).
 * Returns whether the map changed.
 */
export function carryOver<T>(
  values: Map<string, T>,
  steps: readonly CarryOverStep[],
  retired: (key: string, version: number) => T | undefined,
): boolean {
  let changed = false;
  for (const step of steps) {
    for (const { from, to } of step.renames) {
      const value = values.get(from);
      if (value !== undefined) {
        if (values.get(to) !== value) changed = true;
        values.set(to, value);
      } else if (values.delete(to)) {
        changed = true;
      }
    }
    for (const { key, version } of step.restores) {
      if (values.has(key)) continue;
      const value = retired(key, version);
      if (value === undefined) continue;
      values.set(key, value);
      changed = true;
    }
  }
  return changed;
}

/** The carry-over that a SourceChanged holds, when it holds all of it. */
export type SourceCarryOver = {
  version: number;
  renamed?: number;
  restored?: number;
  renames?: readonly KeyRename[];
  restores?: readonly KeyRestore[];
};

function completeStep(change: SourceCarryOver): CarryOverStep | undefined {
  const renames = change.renames ?? [];
  const restores = change.restores ?? [];
  if (renames.length !== (change.renamed ?? 0) || restores.length !== (change.restored ?? 0))
    return undefined;
  return { version: change.version, renames, restores };
}

/**
 * Keeps each locale's stored translations carried over the source's renames and restores, up to
 * a version (`carried_version` of the locale; guarded, so a duplicate or late event changes
 * nothing): from SourceChanged in the consumer's transaction, and for what an event could not
 * carry (a gap, or more than an event holds) from source-service's internal API when counts are
 * refreshed or translations uploaded.
 */
export function createCarryOver(deps: {
  locales: LocalesRepository;
  retired: RetiredTranslationsRepository;
  client: SourceClient;
  logger: Logger;
}) {
  const { locales, retired, client, logger } = deps;

  /**
   * `values` (translations, or translations with who wrote them) carried over `steps`; a
   * restored key's value made of its retired translation by `fromRetired`. Whether any changed.
   */
  async function applyTo<T>(
    projectId: string,
    locale: string,
    values: Map<string, T>,
    steps: readonly CarryOverStep[],
    q: Queryable,
    fromRetired: (row: RetiredTranslation) => T,
  ): Promise<boolean> {
    const restored = steps.flatMap((step) => step.restores.map((restore) => restore.key));
    const kept = await retired.find(projectId, locale, restored, q);
    const byKey = new Map(kept.map((row) => [row.key, row]));
    return carryOver(values, steps, (key, version) => {
      const row = byKey.get(key);
      return row?.sourceRevision === version ? fromRetired(row) : undefined;
    });
  }

  /** Every locale with translations carried up to a version before `through`: carried up to it. */
  async function carryLocales(
    projectId: string,
    through: number,
    steps: readonly CarryOverStep[],
    tx: Queryable,
    onlyFrom?: number,
  ): Promise<void> {
    for (const row of await locales.lockUncarried(projectId, through, tx)) {
      if (onlyFrom !== undefined && row.carriedVersion !== onlyFrom) continue;
      const own = steps.filter((step) => step.version > row.carriedVersion && step.version <= through);
      let content: Buffer | undefined;
      let provenance: Buffer | undefined;
      if (own.length > 0) {
        const entries = await decodeStoredEntries(row.content);
        const writers = await decodeProvenance(row.provenance);
        // Who wrote a translation goes with it: to the renamed key, and back to a restored one.
        const written = new Map(
          entries.keys.map((key, i): [string, Written] => [
            key,
            { translation: entries.values[i]!, provenance: writers.get(key) },
          ]),
        );
        const changed = await applyTo(projectId, row.locale, written, own, tx, (retiredRow) => ({
          translation: retiredRow.translation,
          provenance: retiredRow.provenance,
        }));
        if (changed) {
          content = await encodeStoredEntries({
            keys: [...written.keys()],
            values: [...written.values()].map((entry) => entry.translation),
          });
          provenance = await encodeProvenance(provenanceOfWritten(written));
        }
      }
      await locales.saveCarried(projectId, row.locale, through, content, tx, provenance);
    }
  }

  return {
    carryOver,

    /**
     * SourceChanged: the locales carried up to the version before it get its renames and
     * restores, in the consumer's transaction. Locales further behind, or a version whose event
     * could not hold them all, are left to `catchUp` (run by the refresh after the event).
     */
    async sourceChanged(projectId: string, change: SourceCarryOver, tx: Queryable): Promise<void> {
      const step = completeStep(change);
      if (!step) return;
      if (step.renames.length === 0 && step.restores.length === 0) {
        await locales.carryNothing(projectId, change.version, tx);
        return;
      }
      await carryLocales(projectId, change.version, [step], tx, change.version - 1);
      await locales.carryNothing(projectId, change.version, tx);
    },

    /**
     * The renames and restores of the versions after `after` up to `through`, asked of
     * source-service (before any lock is taken); undefined when it cannot answer now (the next
     * refresh tries again).
     */
    async fetchSteps(
      projectId: string,
      after: number,
      through: number,
    ): Promise<CarryOverStep[] | undefined> {
      if (after >= through) return [];
      try {
        return await client.fetchCarryOvers(projectId, after, through);
      } catch (err) {
        logger.warn(
          { err, projectId, after, through },
          'renames and restores not fetched; the next refresh will',
        );
        return undefined;
      }
    },

    /** Every locale carried up to `through` with `steps` (fetchSteps from the lowest carried version). */
    catchUp(
      projectId: string,
      through: number,
      steps: readonly CarryOverStep[],
      tx: Queryable,
    ): Promise<void> {
      return carryLocales(projectId, through, steps, tx);
    },

    /**
     * An upload's translations (made from `from`) carried up to `through`, in place, and what its
     * keys' writers become: a claim goes with its translation to the renamed key; a restored key
     * gets the writer of its retired translation.
     */
    async carryUpload(
      projectId: string,
      locale: string,
      translations: Map<string, string>,
      claimed: ClaimedKeys,
      steps: readonly CarryOverStep[],
      q: Queryable,
    ): Promise<{ claimed: ClaimedKeys; restored: ProvenanceMap }> {
      type Uploaded = { translation: string; claim?: Claim; restored?: Provenance };
      const uploaded = new Map(
        [...translations].map(([key, translation]): [string, Uploaded] => [
          key,
          { translation, claim: claimed.get(key) },
        ]),
      );
      await applyTo(projectId, locale, uploaded, steps, q, (row) => ({
        translation: row.translation,
        restored: row.provenance,
      }));
      translations.clear();
      const carriedClaims = new Map<string, Claim>();
      const restored = new Map<string, Provenance>();
      for (const [key, entry] of uploaded) {
        translations.set(key, entry.translation);
        if (entry.claim) carriedClaims.set(key, entry.claim);
        if (entry.restored) restored.set(key, entry.restored);
      }
      return { claimed: carriedClaims, restored };
    },
  };
}

export type CarryOver = ReturnType<typeof createCarryOver>;
