import { enqueueEvent } from '@tolk/bus';
import {
  CARRY_OVER_EVENT_LIMIT,
  compileKeyRules,
  ifMatchHolds,
  keyCharacters,
  keyRulesWorkProblem,
  NO_KEY_RULES,
  type IfMatch,
  type Principal,
} from '@tolk/contracts';
import type { Queryable } from '@tolk/db';
import { PreconditionFailedError, ValidationError } from '@tolk/errors';
import {
  encodeDocument,
  encodeRevisions,
  isEmptyDiff,
  matchSourceEntries,
  sameAnnotations,
  type ParsedSource,
  type SourceDiff,
  type SourceMatch,
} from '@tolk/locale-file';
import { parseUpload } from '@tolk/locale-file/upload';
import { authorizeProject as authorize, projectNotFound } from '@tolk/projects';
import type { SourceProject } from '../data-access/projects-repository.js';
import type { VersionSummary } from '../data-access/versions-repository.js';
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
import type { SourceUseCaseDeps } from './source-deps.js';
import { sourceChangedEvent } from './source-events.js';
import { COMPARED, EMPTY_DIFF, EMPTY_VERSION } from './source-reads.js';

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

/**
 * A new version of the project's source uploaded (`PUT .../source`): its diff, the keys' revisions
 * and what they carry over, stored with a SourceChanged event in the same transaction.
 */
export function createUploadSource(deps: SourceUseCaseDeps) {
  const { db, projects, versions, deletedKeys, directory, writerCheck, cache, limits, now, logger } = deps;
  const { load, pendingDiff } = deps.reads;

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

  /**
   * `PUT .../source`. Compared first with the current version read without a lock: an
   * identical upload (the common CI case) answers at once. A change is compressed before the
   * project's row is locked, so the lock is held only for the writes.
   */
  return async function upload(
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
  };
}
