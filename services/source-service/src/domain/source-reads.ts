import type { Principal } from '@tolk/contracts';
import type { Queryable } from '@tolk/db';
import { NotFoundError } from '@tolk/errors';
import {
  EMPTY_SOURCE,
  computeSourceDiff,
  decodeDocument,
  decodeRevisions,
  decodeStoredSource,
  matchSourceEntries,
  rebuildDocument,
  type ParsedSource,
  type SourceDiff,
} from '@tolk/locale-file';
import { authorizeProject as authorize } from '@tolk/projects';
import type { SourceProject } from '../data-access/projects-repository.js';
import { nextRevisions, type SourceVersion } from './key-revisions.js';
import type { SourcesDeps } from './source-deps.js';

/** The spec's Source file object. */
export type SourceFile = {
  version: number;
  locale: string;
  keyCount: number;
  content: string;
  pendingDiff: SourceDiff;
  updatedAt: number;
};

/** Versions are parsed with what comparing the next upload with them uses. */
export const COMPARED = Object.freeze({ leafNames: true });

export const EMPTY_DIFF: SourceDiff = Object.freeze({ added: [], modified: [], deleted: [] });
export const EMPTY_VERSION: SourceVersion = Object.freeze({ ...EMPTY_SOURCE, revisions: [] });

/**
 * `diff` (baseline → source) with the added and modified keys those whose revision is later than
 * baseline. `diff.added` is in source's key order (computeSourceDiff), so one walk over the keys
 * tells them apart without a set. Against the empty source (baseline 0) every key is pending.
 */
function pendingOf(
  diff: SourceDiff,
  source: ParsedSource & { revisions: ArrayLike<number> },
  baseline: number,
): SourceDiff {
  if (baseline === 0) return diff;
  const { keys, revisions } = source;
  const pending: SourceDiff = { added: [], modified: [], deleted: diff.deleted };
  let nextAdded = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const added = diff.added[nextAdded] === key;
    if (added) nextAdded++;
    if (revisions[i]! <= baseline) continue;
    (added ? pending.added : pending.modified).push(key);
  }
  return pending;
}

export function versionNotFound(version: number): NotFoundError {
  return new NotFoundError(`Source version ${version} does not exist`);
}

/**
 * What the use cases read of a project (`openToRead`) and of its versions: each parsed (and
 * cached), what is pending translation in it, and the spec's Source file of it.
 */
export function createSourceReads(
  deps: Pick<SourcesDeps, 'db' | 'versions' | 'baselines' | 'cache' | 'directory'>,
) {
  const { db, versions, baselines, cache, directory } = deps;

  /** The project, once the principal may read it. */
  async function openToRead(principal: Principal | undefined, projectId: string): Promise<SourceProject> {
    authorize(principal, projectId, 'read');
    return directory.require(projectId);
  }

  /** The parsed content of a version; 0 is the empty source. Undefined when it does not exist. */
  async function load(
    projectId: string,
    version: number,
    q: Queryable = db,
  ): Promise<SourceVersion | undefined> {
    if (version === 0) return EMPTY_VERSION;
    const cached = cache.get(projectId, version);
    if (cached) return cached;
    const stored = await versions.stored(projectId, version, q);
    if (!stored) return undefined;
    let source: SourceVersion;
    if (stored.format === 2) {
      const [parsed, revisions] = await Promise.all([
        decodeDocument(stored.document, COMPARED),
        decodeRevisions(stored.revisions),
      ]);
      source = { ...parsed, revisions };
    } else {
      const decoded = await decodeStoredSource(stored.content);
      source = {
        ...decoded,
        revisions: decoded.revisions ?? (await deriveRevisions(projectId, version, decoded, q)),
      };
    }
    cache.set(projectId, version, source);
    return source;
  }

  /** Versions stored before revisions were kept: derived from the version before, recursively. */
  async function deriveRevisions(
    projectId: string,
    version: number,
    source: ParsedSource,
    q: Queryable,
  ): Promise<Int32Array> {
    const previous = (await load(projectId, version - 1, q)) ?? EMPTY_VERSION;
    return nextRevisions(previous.revisions, matchSourceEntries(previous, source).unchangedFrom, version);
  }

  /**
   * What is not yet translated in `version`: the diff from the translation baseline to it, its
   * added and modified keys being those whose revision is later than the baseline. So a key
   * carried over (renamed or restored, DESIGN §13) with a revision the baseline has reached is
   * not pending, and a key whose context changed (a new revision, same value) is modified.
   * Empty when the baseline has reached the version. `known` is a diff already computed, reused
   * when it starts at the baseline.
   */
  async function pendingDiff(
    projectId: string,
    version: number,
    source: ParsedSource & { revisions: ArrayLike<number> },
    q: Queryable = db,
    known?: { from: number; diff: SourceDiff },
  ): Promise<SourceDiff> {
    const baseline = await baselines.version(projectId, q);
    if (baseline >= version) return EMPTY_DIFF;
    let diff: SourceDiff;
    if (known && known.from === baseline) diff = known.diff;
    else diff = computeSourceDiff((await load(projectId, baseline, q)) ?? EMPTY_SOURCE, source);
    return pendingOf(diff, source, baseline);
  }

  async function sourceFile(
    projectId: string,
    locale: string,
    version: number,
    updatedAt: number,
  ): Promise<SourceFile> {
    const source = await load(projectId, version);
    if (!source) throw versionNotFound(version);
    return {
      version,
      locale,
      keyCount: source.keys.length,
      content: JSON.stringify(rebuildDocument(source)),
      pendingDiff: await pendingDiff(projectId, version, source),
      updatedAt,
    };
  }

  return { openToRead, load, pendingDiff, sourceFile };
}

export type SourceReads = ReturnType<typeof createSourceReads>;
