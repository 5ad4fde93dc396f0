import { randomUUID } from 'node:crypto';
import {
  GLOSSARY_PAGE_BYTES,
  MAX_GLOSSARY_BYTES,
  MAX_GLOSSARY_ENTRIES,
  glossaryEntryBytes,
  glossaryTermKey,
  type GlossaryEntryChanges,
  type GlossaryEntryInput,
  type Principal,
} from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';
import {
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  ValidationError,
} from '@tolk/errors';
import type { Logger } from '@tolk/logger';
import { authorizeProject, type WriterCheck } from '@tolk/projects';
import type {
  GlossaryEntryRecord,
  GlossaryPageRecords,
  GlossaryRepository,
  GlossarySize,
} from '../data-access/glossary-repository.js';
import type { ProjectsRepository } from '../data-access/projects-repository.js';
import { isPlausibleId } from './ids.js';
import { projectNotFound, type ProjectAccess } from './project-access.js';
import { timeSlices } from './time-slices.js';

/** What an import did, and what the glossary holds after it: counts, never the entries. */
export type GlossaryImportResult = {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  total: number;
  bytes: number;
};

/** A page of the glossary, with what the whole glossary holds: `total` entries and `bytes`. */
export type GlossaryPage = GlossaryPageRecords & { total: number; bytes: number };

function newEntryId(): string {
  return `gle_${randomUUID().replaceAll('-', '')}`;
}

function entryNotFound(): NotFoundError {
  return new NotFoundError('Glossary entry not found');
}

const count = (n: number) => n.toLocaleString('en-US');
const change = (n: number) => (n < 0 ? `−${count(-n)}` : `+${count(n)}`);
const entryCount = (n: number) => `${count(n)} entr${n === 1 ? 'y' : 'ies'}`;

/**
 * 413 when a write would take the glossary past its bound in entries or in bytes, naming the
 * bound, what the glossary holds and what the write would make of it. A glossary stored before
 * the bound may be over it: a write that does not make it bigger still passes, so it can shrink.
 */
function refuseOverBound(before: GlossarySize, after: GlossarySize, what: 'entry' | 'change' | 'import') {
  const tooMany = after.entries > MAX_GLOSSARY_ENTRIES && after.entries > before.entries;
  const tooBig = after.bytes > MAX_GLOSSARY_BYTES && after.bytes > before.bytes;
  if (!tooMany && !tooBig) return;
  const subject = { entry: 'this entry', change: 'this change', import: 'this import' }[what];
  throw new PayloadTooLargeError(
    `A project's glossary holds at most ${count(MAX_GLOSSARY_ENTRIES)} entries and ` +
      `${count(MAX_GLOSSARY_BYTES)} bytes of text (terms, notes, locale codes and renderings in UTF-8); ` +
      `it holds ${entryCount(before.entries)} and ${count(before.bytes)} bytes, and ${subject} would make ` +
      `that ${entryCount(after.entries)} (${change(after.entries - before.entries)}) and ` +
      `${count(after.bytes)} bytes (${change(after.bytes - before.bytes)}). ` +
      `Nothing was ${what === 'import' ? 'imported' : 'stored'}.`,
  );
}

function sameTranslations(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((locale) => a[locale] === b[locale]);
}

function sameContent(a: GlossaryEntryRecord, b: GlossaryEntryInput): boolean {
  return (
    a.term === b.term &&
    a.caseSensitive === b.caseSensitive &&
    a.keepAsIs === b.keepAsIs &&
    a.note === b.note &&
    sameTranslations(a.translations, b.translations)
  );
}

function keepAsIsConflict(entry: { keepAsIs: boolean; translations: Record<string, string> }): void {
  const locales = Object.keys(entry.translations);
  if (entry.keepAsIs && locales.length > 0) {
    throw new ValidationError(
      `body: keepAsIs cannot be true while the entry has translations (${locales.join(', ')}); ` +
        'send "translations": {} with it',
    );
  }
}

/**
 * A project's glossary (DESIGN §13). Who: every member reads and writes (it is translators'
 * work, like translations); a project API token of the project reads, and with `read_write`
 * also imports (PUT) — the gateway lets tokens through for GET and PUT only. Every change locks
 * the project's row first, so changes apply one at a time and the limit of entries holds.
 */
export function createGlossary(deps: {
  db: Db;
  glossary: GlossaryRepository;
  projects: ProjectsRepository;
  access: ProjectAccess;
  /**
   * A write commits only if its token is still live, its user's account still exists then (an
   * import's body may have taken minutes). Members are read under the project's lock.
   */
  writerCheck: WriterCheck;
  now: () => number;
  logger: Logger;
}) {
  const { db, glossary, projects, access, writerCheck, now, logger } = deps;

  async function authorize(
    principal: Principal | undefined,
    projectId: string,
    need: 'read' | 'write',
    q: Queryable,
  ): Promise<void> {
    if (!principal) throw new UnauthorizedError('A valid access token is required');
    if (principal.kind === 'user') {
      if (need === 'write') await access.lockAsMember(projectId, principal.userId, q);
      else await access.roleOf(projectId, principal.userId, q);
      return;
    }
    authorizeProject(principal, projectId, need);
    const project = isPlausibleId(projectId)
      ? await (need === 'write' ? projects.lock(projectId, q) : projects.find(projectId, q))
      : undefined;
    if (!project) throw projectNotFound();
  }

  async function requireEntry(
    projectId: string,
    entryId: string,
    q: Queryable,
  ): Promise<GlossaryEntryRecord> {
    const entry = isPlausibleId(entryId) ? await glossary.find(projectId, entryId, q) : undefined;
    if (!entry) throw entryNotFound();
    return entry;
  }

  async function refuseTakenTerm(projectId: string, term: string, q: Queryable, except?: string) {
    const taken = await glossary.findByTermKey(projectId, glossaryTermKey(term), q);
    if (taken && taken.entryId !== except) {
      throw new ConflictError(
        `The glossary already has an entry for ${JSON.stringify(taken.term)} (${taken.entryId}); ` +
          'terms are compared ignoring case',
      );
    }
  }

  async function pageOf(projectId: string, after: string | undefined, limit: number): Promise<GlossaryPage> {
    const [page, size] = await Promise.all([
      glossary.page(projectId, { after, limit, budget: GLOSSARY_PAGE_BYTES }),
      glossary.size(projectId),
    ]);
    return { ...page, total: size.entries, bytes: size.bytes };
  }

  return {
    /** One page of entries in term order, after the term key `after` (from the first if undefined). */
    async page(
      principal: Principal | undefined,
      projectId: string,
      options: { after: string | undefined; limit: number },
    ): Promise<GlossaryPage> {
      await authorize(principal, projectId, 'read', db);
      return pageOf(projectId, options.after, options.limit);
    },

    /**
     * Every entry, a page at a time: only the caller's principal is checked, once, before the
     * first. Pages are read one by one when asked for, so a reader that takes the entries slowly
     * holds one page in memory and no database connection between them.
     */
    async *pages(
      principal: Principal | undefined,
      projectId: string,
      limit: number,
    ): AsyncGenerator<GlossaryPage> {
      await authorize(principal, projectId, 'read', db);
      let after: string | undefined;
      do {
        const page = await pageOf(projectId, after, limit);
        yield page;
        after = page.next;
      } while (after !== undefined);
    },

    async create(
      principal: Principal | undefined,
      projectId: string,
      input: GlossaryEntryInput,
    ): Promise<GlossaryEntryRecord> {
      const atCommit = writerCheck.atCommit(principal, projectId);
      return db.transaction(async (tx) => {
        await authorize(principal, projectId, 'write', tx);
        await refuseTakenTerm(projectId, input.term, tx);
        const before = await glossary.size(projectId, tx);
        refuseOverBound(
          before,
          { entries: before.entries + 1, bytes: before.bytes + glossaryEntryBytes(input) },
          'entry',
        );
        const at = now();
        const entry: GlossaryEntryRecord = {
          entryId: newEntryId(),
          projectId,
          termKey: glossaryTermKey(input.term),
          ...input,
          createdAt: at,
          updatedAt: at,
        };
        await glossary.upsert([entry], tx);
        return entry;
      }, atCommit);
    },

    async update(
      principal: Principal | undefined,
      projectId: string,
      entryId: string,
      changes: GlossaryEntryChanges,
    ): Promise<GlossaryEntryRecord> {
      const atCommit = writerCheck.atCommit(principal, projectId);
      return db.transaction(async (tx) => {
        await authorize(principal, projectId, 'write', tx);
        const current = await requireEntry(projectId, entryId, tx);
        const next: GlossaryEntryInput = {
          term: changes.term ?? current.term,
          caseSensitive: changes.caseSensitive ?? current.caseSensitive,
          keepAsIs: changes.keepAsIs ?? current.keepAsIs,
          note: changes.note !== undefined ? changes.note : current.note,
          translations: changes.translations ?? current.translations,
        };
        keepAsIsConflict(next);
        if (sameContent(current, next)) return current;
        if (changes.term !== undefined) await refuseTakenTerm(projectId, next.term, tx, entryId);
        const before = await glossary.size(projectId, tx);
        const grows = glossaryEntryBytes(next) - glossaryEntryBytes(current);
        refuseOverBound(before, { entries: before.entries, bytes: before.bytes + grows }, 'change');
        const entry: GlossaryEntryRecord = {
          ...current,
          ...next,
          termKey: glossaryTermKey(next.term),
          updatedAt: Math.max(now(), current.updatedAt),
        };
        await glossary.upsert([entry], tx);
        return entry;
      }, atCommit);
    },

    async delete(principal: Principal | undefined, projectId: string, entryId: string): Promise<void> {
      const atCommit = writerCheck.atCommit(principal, projectId);
      await db.transaction(async (tx) => {
        await authorize(principal, projectId, 'write', tx);
        await requireEntry(projectId, entryId, tx);
        await glossary.delete(projectId, [entryId], tx);
      }, atCommit);
    },

    /**
     * An import, all or nothing: `entries` (validated, no two with one term) become the glossary;
     * with `merge`, they replace the entries of their terms and every other entry stays. An entry
     * whose term is already there keeps its id and creation time. Only the entries of the
     * import's terms are read, and the answer is counts: an import costs what it brings, whatever
     * the glossary holds. The entries are compared in time slices (timeSlices). `awaited` throws
     * once the answer would no longer reach the sender (see answerAwaited): it is asked before
     * the transaction and last thing before its commit, so an import is stored only if its
     * answer says so.
     */
    async replace(
      principal: Principal | undefined,
      projectId: string,
      entries: GlossaryEntryInput[],
      options: { merge: boolean; awaited: () => void },
    ): Promise<GlossaryImportResult> {
      const atCommit = writerCheck.atCommit(principal, projectId);
      const termKeys = entries.map((input) => glossaryTermKey(input.term));
      options.awaited();
      const result = await db.transaction(async (tx) => {
        await authorize(principal, projectId, 'write', tx);
        const before = await glossary.size(projectId, tx);
        const existing = new Map(
          (await glossary.findByTermKeys(projectId, termKeys, tx)).map((e) => [e.termKey, e]),
        );
        const at = now();
        const writes: GlossaryEntryRecord[] = [];
        let created = 0;
        let updated = 0;
        let unchanged = 0;
        let importedBytes = 0;
        let replacedBytes = 0;
        const turn = timeSlices();
        for (const [index, input] of entries.entries()) {
          await turn();
          const termKey = termKeys[index]!;
          const current = existing.get(termKey);
          importedBytes += glossaryEntryBytes(input);
          if (current) replacedBytes += glossaryEntryBytes(current);
          if (current && sameContent(current, input)) {
            unchanged++;
            continue;
          }
          if (current) updated++;
          else created++;
          writes.push({
            entryId: current?.entryId ?? newEntryId(),
            projectId,
            termKey,
            ...input,
            createdAt: current?.createdAt ?? at,
            updatedAt: current ? Math.max(at, current.updatedAt) : at,
          });
        }
        const after = options.merge
          ? { entries: before.entries + created, bytes: before.bytes - replacedBytes + importedBytes }
          : { entries: entries.length, bytes: importedBytes };
        refuseOverBound(before, after, 'import');
        const deleted = options.merge ? 0 : await glossary.deleteAllBut(projectId, termKeys, tx);
        await glossary.upsert(writes, tx);
        options.awaited();
        return { created, updated, unchanged, deleted, total: after.entries, bytes: after.bytes };
      }, atCommit);
      const { created, updated, deleted } = result;
      logger.info({ projectId, created, updated, deleted, merge: options.merge }, 'glossary imported');
      return result;
    },
  };
}

export type Glossary = ReturnType<typeof createGlossary>;
