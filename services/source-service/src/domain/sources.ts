import { enqueueEvent } from '@tolk/bus';
import {
  compileKeyRules,
  ifMatchHolds,
  keyCharacters,
  keyRulesWorkProblem,
  NO_KEY_RULES,
  type IfMatch,
  type Principal,
} from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';
import { NotFoundError, PreconditionFailedError, ValidationError } from '@tolk/errors';
import {
  authorizeProject as authorize,
  projectNotFound,
  type ProjectDirectory,
  type WriterCheck,
} from '@tolk/projects';
import type { Logger } from '@tolk/logger';
import type { BaselinesRepository } from '../data-access/baselines-repository.js';
import type { ProjectsRepository, SourceProject } from '../data-access/projects-repository.js';
import type { VersionSummary, VersionsRepository } from '../data-access/versions-repository.js';
import type { DeletedKeysRepository } from '../data-access/deleted-keys-repository.js';
import { CARRY_OVER_EVENT_LIMIT } from '@tolk/contracts';
import {
  contextChanged,
  deletedKeysOf,
  diffIndexes,
  findRenames,
  withRestores,
  type CarryOver,
  type DiffIndexes,
} from './carry-over.js';
import { nextRevisions, type SourceVersion } from './key-revisions.js';
import { parseUpload } from '@tolk/locale-file/upload';
import { sourceChangedEvent } from './source-events.js';
import {
  EMPTY_SOURCE,
  computeSourceDiff,
  decodeDocument,
  decodeRevisions,
  decodeStoredSource,
  encodeDocument,
  encodeRevisions,
  frameSourceVersion,
  isEmptyDiff,
  matchSourceEntries,
  rebuildDocument,
  sameAnnotations,
  type ParsedSource,
  type SourceDiff,
  type SourceMatch,
  type SourceLimits,
  type VersionCache,
} from '@tolk/locale-file';

/** `If-Match`: the versions the client expects to be current, or `*` (any version exists). */
export type ExpectedVersion = IfMatch;

/**
 * `raw`: the body's JSON text as it arrived; `document`: the same, compressed for storage
 * (encodeDocument).
 */
export type UploadOptions = {
  expected?: ExpectedVersion;
  dryRun: boolean;
  raw?: Buffer;
  document?: Promise<Buffer>;
};

export type UploadResult = { version: number; diff: SourceDiff; keyCount: number; needsTranslation: boolean };

/** The spec's Source file object. */
export type SourceFile = {
  version: number;
  locale: string;
  keyCount: number;
  content: string;
  pendingDiff: SourceDiff;
  updatedAt: number;
};

/** Version 0, the empty source, as the internal route sends it: the same bytes every time. */
let emptyFrameOnce: Promise<Buffer> | undefined;
function emptyFrame(): Promise<Buffer> {
  emptyFrameOnce ??= Promise.all([encodeDocument('{}'), encodeRevisions([])]).then(([document, revisions]) =>
    frameSourceVersion(document, revisions),
  );
  return emptyFrameOnce;
}

/** Versions are parsed with what comparing the next upload with them uses. */
const COMPARED = Object.freeze({ leafNames: true });

const EMPTY_DIFF: SourceDiff = Object.freeze({ added: [], modified: [], deleted: [] });
const EMPTY_VERSION: SourceVersion = Object.freeze({ ...EMPTY_SOURCE, revisions: [] });

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

function hasUntranslated(diff: SourceDiff): boolean {
  return diff.added.length > 0 || diff.modified.length > 0;
}

function requireExpected(expected: ExpectedVersion | undefined, current: number): void {
  if (!ifMatchHolds(expected, current, current > 0)) {
    throw new PreconditionFailedError(
      `If-Match does not match: the source is at version ${current}` +
        (current === 0 ? ' (nothing uploaded yet)' : ''),
    );
  }
}

/**
 * A version once the next one is current: what only comparing an upload with the current version
 * uses (the bytes as uploaded, the keys' names) is dropped, so that versions kept in memory cost
 * less.
 */
function superseded(version: SourceVersion): SourceVersion {
  const { raw: _raw, leafNames: _leafNames, ...kept } = version;
  return kept;
}

function versionNotFound(version: number): NotFoundError {
  return new NotFoundError(`Source version ${version} does not exist`);
}

/**
 * Source files of a project (DESIGN §4): uploads create gapless versions with their diff and a
 * SourceChanged event in the same transaction; reads rebuild the file with its own nesting.
 */
export function createSources(deps: {
  db: Db;
  projects: ProjectsRepository;
  versions: VersionsRepository;
  baselines: BaselinesRepository;
  deletedKeys: DeletedKeysRepository;
  directory: ProjectDirectory<SourceProject>;
  /** An upload commits only if its sender may still write then. */
  writerCheck: WriterCheck;
  cache: VersionCache<SourceVersion>;
  limits: SourceLimits;
  /** The most work the project's key rules may take over an upload's keys (keyRulesWorkProblem). */
  keyRulesBudget: number;
  now: () => number;
  logger: Logger;
}) {
  const {
    db,
    projects,
    versions,
    baselines,
    deletedKeys,
    directory,
    writerCheck,
    cache,
    limits,
    now,
    logger,
  } = deps;

  /**
   * The project's key rules must stay within their budget over the keys of the upload: every
   * service that evaluates them (locale-service's counts, the CLI) then finishes within it.
   */
  async function requireKeyRulesWithinBudget(project: SourceProject, keys: readonly string[]) {
    const known = project.keyRules ?? (await directory.refresh(project.projectId)).keyRules;
    const rules = await compileKeyRules(known ?? NO_KEY_RULES);
    if (rules.empty) return;
    const problem = keyRulesWorkProblem(rules, keyCharacters(keys), deps.keyRulesBudget);
    if (problem) throw new ValidationError(`body: ${problem}; nothing was stored`);
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

  /**
   * How an upload compares with `base`, the version it would follow (its entries are made to share
   * base's strings, see matchSourceEntries); `unchanged` when it creates no version. A first upload
   * always creates version 1, even of an empty file.
   */
  function compare(base: SourceVersion, baseVersion: number, parsed: ParsedSource) {
    const match = matchSourceEntries(base, parsed);
    const unchanged =
      baseVersion > 0 && isEmptyDiff(match.diff) && sameAnnotations(base.annotations, parsed.annotations);
    return { match, unchanged };
  }

  /**
   * A new version `version` of the source, after `base` (`match`: how it compares with base): its
   * diff, revisions and stored form. The document is compressed as it came (`document`, already
   * being compressed on the thread pool while the upload was parsed here).
   */
  async function prepare(
    project: SourceProject,
    base: SourceVersion,
    match: SourceMatch,
    parsed: ParsedSource,
    version: number,
    document: Promise<Buffer>,
    raw: Buffer | undefined,
    q: Queryable = db,
  ) {
    const { diff } = match;
    const { revisions, carryOver, indexes } = await plan(project, base, match, parsed, version, q);
    const [storedDocument, storedRevisions] = await Promise.all([document, encodeRevisions(revisions)]);
    return {
      base,
      diff,
      carryOver,
      deleted: await deletedKeysOf(base, diff.deleted, indexes),
      stored: { document: storedDocument, revisions: storedRevisions },
      version: { ...parsed, revisions, raw } satisfies SourceVersion,
    };
  }

  /**
   * The revisions of version `version` (`parsed`, after `base`) and what it carries over
   * (DESIGN §13): a renamed or restored key keeps its earlier revision; a key whose context
   * annotation changed gets `version`, unless the project turned that off.
   */
  async function plan(
    project: SourceProject,
    base: SourceVersion,
    match: SourceMatch,
    parsed: ParsedSource,
    version: number,
    q: Queryable,
  ): Promise<{ revisions: Int32Array; carryOver: CarryOver; indexes: DiffIndexes }> {
    const { diff, unchangedFrom } = match;
    const revisions = nextRevisions(base.revisions, unchangedFrom, version);
    const indexes = await diffIndexes(base, parsed, match);
    const compareContext = project.outdateOnContextChange;
    if (compareContext) {
      for (const i of await contextChanged(base, parsed, unchangedFrom, indexes)) revisions[i] = version;
    }
    const renames = await findRenames(base, parsed, diff, indexes, compareContext);
    // Only an added key that is no rename can be a restore; a first version restores nothing.
    const lastDeleted =
      renames.unmatched.length > 0 && version > 1
        ? await deletedKeys.find(project.projectId, renames.unmatched, q)
        : [];
    const found = withRestores(renames, parsed, lastDeleted, indexes, compareContext);
    for (const [i, revision] of found.revisions) revisions[i] = revision;
    return { revisions, carryOver: found.carryOver, indexes };
  }

  async function unchanged(projectId: string, version: number, source: SourceVersion, q?: Queryable) {
    const pending = await pendingDiff(projectId, version, source, q);
    return {
      version,
      diff: EMPTY_DIFF,
      keyCount: source.keys.length,
      needsTranslation: hasUntranslated(pending),
    };
  }

  return {
    /**
     * `PUT .../source`. Compared first with the current version read without a lock: an
     * identical upload (the common CI case) answers at once. A change is compressed before the
     * project's row is locked, so the lock is held only for the writes.
     */
    async upload(
      principal: Principal | undefined,
      projectId: string,
      body: unknown,
      options: UploadOptions,
    ): Promise<UploadResult> {
      authorize(principal, projectId, 'write');
      const project = await directory.require(projectId);
      requireExpected(options.expected, project.currentVersion);

      const seen = project.currentVersion;
      const previous = await load(projectId, seen);
      if (!previous) throw new Error(`content of version ${seen} of ${projectId} is missing`);
      // The very bytes of the current version (CI uploading an unchanged file): no change, and
      // nothing to parse, since those bytes were checked when they were uploaded.
      if (seen > 0 && options.raw && previous.raw?.equals(options.raw)) {
        return unchanged(projectId, seen, previous);
      }
      const parsed = await parseUpload(body, limits, COMPARED);
      const { match, unchanged: same } = compare(previous, seen, parsed);
      if (same) return unchanged(projectId, seen, previous);
      await requireKeyRulesWithinBudget(project, parsed.keys);
      if (options.dryRun) {
        const { diff } = match;
        const { revisions } = await plan(project, previous, match, parsed, seen + 1, db);
        const pending = await pendingDiff(projectId, seen + 1, { ...parsed, revisions }, db, {
          from: seen,
          diff,
        });
        return {
          version: seen + 1,
          diff,
          keyCount: parsed.keys.length,
          needsTranslation: hasUntranslated(pending),
        };
      }

      // Diffed and compressed against the version seen, before the project's row is locked. The
      // document as it came (being compressed since before it was parsed); serialised again
      // when there is none (a caller other than the HTTP route).
      const document = options.document ?? encodeDocument(JSON.stringify(body));
      let prepared = await prepare(project, previous, match, parsed, seen + 1, document, options.raw);
      let created = false;
      // Committed only if its sender may still write then: the body may have taken minutes since
      // the gateway let them in, and the project's lock a while; they may have lost the right.
      const atCommit = writerCheck.atCommit(principal, projectId);
      const result = await db.transaction(async (tx) => {
        const head = await projects.lock(projectId, tx);
        if (!head) throw projectNotFound();
        requireExpected(options.expected, head.currentVersion);
        if (head.currentVersion !== seen) {
          // Another upload got in between: compare with what is current now.
          const base = (await load(projectId, head.currentVersion, tx)) ?? EMPTY_VERSION;
          const against = compare(base, head.currentVersion, parsed);
          if (against.unchanged) return unchanged(projectId, head.currentVersion, base, tx);
          prepared = await prepare(
            head,
            base,
            against.match,
            parsed,
            head.currentVersion + 1,
            document,
            options.raw,
            tx,
          );
        }
        const { diff, stored, carryOver } = prepared;
        const summary: VersionSummary = {
          version: head.currentVersion + 1,
          keyCount: parsed.keys.length,
          added: diff.added.length,
          modified: diff.modified.length,
          deleted: diff.deleted.length,
          createdAt: now(),
          renamed: carryOver.renames.length,
          restored: carryOver.restores.length,
          renames: carryOver.renames,
          restores: carryOver.restores,
        };
        await versions.insert(projectId, summary, stored, tx);
        await deletedKeys.remember(projectId, summary.version, prepared.deleted, tx);
        await projects.setCurrentVersion(projectId, summary.version, summary.createdAt, tx);
        // The outbox holds no megabytes: a version with many carried keys names only how many.
        const inEvent = summary.renamed + summary.restored <= CARRY_OVER_EVENT_LIMIT;
        await enqueueEvent(
          tx,
          db.schema,
          sourceChangedEvent(
            {
              projectId,
              version: summary.version,
              previousVersion: head.currentVersion,
              keyCount: summary.keyCount,
              added: summary.added,
              modified: summary.modified,
              deleted: summary.deleted,
              renamed: summary.renamed,
              restored: summary.restored,
              renames: inEvent ? carryOver.renames : [],
              restores: inEvent ? carryOver.restores : [],
            },
            summary.createdAt,
          ),
        );
        const pending = await pendingDiff(projectId, summary.version, prepared.version, tx, {
          from: head.currentVersion,
          diff,
        });
        created = true;
        return {
          version: summary.version,
          diff,
          keyCount: summary.keyCount,
          needsTranslation: hasUntranslated(pending),
        };
      }, atCommit);
      if (created) {
        const follows = result.version - 1;
        if (follows > 0 && cache.get(projectId, follows) === prepared.base) {
          cache.set(projectId, follows, superseded(prepared.base));
        }
        cache.set(projectId, result.version, prepared.version);
        logger.debug(
          { projectId, version: result.version, keyCount: result.keyCount },
          'source version created',
        );
      }
      return result;
    },

    /** `GET .../source`: the current version; 404 before the first upload. */
    async current(principal: Principal | undefined, projectId: string): Promise<SourceFile> {
      authorize(principal, projectId, 'read');
      const project = await directory.require(projectId);
      if (project.currentVersion === 0 || project.sourceUpdatedAt === null) {
        throw new NotFoundError('No source has been uploaded to this project yet');
      }
      return sourceFile(projectId, project.sourceLocale, project.currentVersion, project.sourceUpdatedAt);
    },

    /** `GET .../source/versions/{version}`: that version, its pendingDiff from the baseline to it. */
    async version(principal: Principal | undefined, projectId: string, version: number): Promise<SourceFile> {
      authorize(principal, projectId, 'read');
      const project = await directory.require(projectId);
      const summary = version > 0 ? await versions.find(projectId, version) : undefined;
      if (!summary) throw versionNotFound(version);
      return sourceFile(projectId, project.sourceLocale, version, summary.createdAt);
    },

    /**
     * For locale-service (internal): the stored document of a version, with every key's revision,
     * as it is kept (gzip JSON, see encodeStoredSource); `current` is the project's current version, 0
     * (the empty source) before the first upload or when source-service has not heard of the
     * project. A deleted project, or a version that does not exist, is NotFoundError.
     */
    async stored(
      projectId: string,
      wanted: number | 'current',
    ): Promise<{ version: number; content: Buffer }> {
      if (await projects.isDeleted(projectId)) throw projectNotFound();
      const project = await projects.find(projectId);
      const version = wanted === 'current' ? (project?.currentVersion ?? 0) : wanted;
      if (version === 0) return { version, content: await emptyFrame() };
      const stored =
        project && version <= project.currentVersion ? await versions.stored(projectId, version) : undefined;
      if (!stored) throw versionNotFound(version);
      if (stored.format === 2) {
        return { version, content: frameSourceVersion(stored.document, stored.revisions) };
      }
      // Stored before format 2: written again in it, revisions derived if need be.
      const source = await load(projectId, version);
      if (!source) throw versionNotFound(version);
      const [document, revisions] = await Promise.all([
        encodeDocument(JSON.stringify(rebuildDocument(source))),
        encodeRevisions(source.revisions),
      ]);
      await versions.upgrade(projectId, version, { document, revisions });
      return { version, content: frameSourceVersion(document, revisions) };
    },

    /**
     * For locale-service (internal): the renames and restores of versions `after`+1..`through`
     * (those with any), oldest first; what a SourceChanged leaves out when they are many, or
     * what a consumer missed. A deleted project is NotFoundError.
     */
    async carryOvers(projectId: string, after: number, through: number) {
      if (await projects.isDeleted(projectId)) throw projectNotFound();
      return versions.carryOvers(projectId, after, through);
    },

    /**
     * For project-service (internal): the characters of the current version's keys, what the
     * work of key rules is counted against; version 0, no keys, before the first upload or when
     * source-service has not heard of the project. A deleted project is NotFoundError.
     */
    async keyCharacters(projectId: string) {
      if (await projects.isDeleted(projectId)) throw projectNotFound();
      const version = (await projects.find(projectId))?.currentVersion ?? 0;
      const source = await load(projectId, version);
      if (!source) throw versionNotFound(version);
      return { version, keyCount: source.keys.length, keyCharacters: keyCharacters(source.keys) };
    },

    /** `GET .../source/versions`: newest first. */
    async list(principal: Principal | undefined, projectId: string): Promise<VersionSummary[]> {
      authorize(principal, projectId, 'read');
      await directory.require(projectId);
      return versions.list(projectId);
    },

    /** `GET .../source/diff?from&to`: between any two versions, 0 being the empty source. */
    async diff(
      principal: Principal | undefined,
      projectId: string,
      from: number,
      to: number,
    ): Promise<SourceDiff> {
      authorize(principal, projectId, 'read');
      const project = await directory.require(projectId);
      const sources: ParsedSource[] = [];
      for (const version of [from, to]) {
        const source = version <= project.currentVersion ? await load(projectId, version) : undefined;
        if (!source) throw versionNotFound(version);
        sources.push(source);
      }
      return computeSourceDiff(sources[0], sources[1]!);
    },
  };
}

export type Sources = ReturnType<typeof createSources>;
