import { randomUUID } from 'node:crypto';
import {
  MAX_GLOSSARY_ENTRIES,
  glossaryTermKey,
  type GlossaryEntryChanges,
  type GlossaryEntryInput,
  type Principal,
} from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '@tolk/http';
import type { Logger } from '@tolk/logger';
import { authorizeProject, type WriterCheck } from '@tolk/projects';
import type { GlossaryEntryRecord, GlossaryRepository } from '../data-access/glossary-repository.js';
import type { ProjectsRepository } from '../data-access/projects-repository.js';
import { isPlausibleId } from './ids.js';
import { projectNotFound, type ProjectAccess } from './project-access.js';

export type GlossaryImportResult = {
  entries: GlossaryEntryRecord[];
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
};

function newEntryId(): string {
  return `gle_${randomUUID().replaceAll('-', '')}`;
}

function entryNotFound(): NotFoundError {
  return new NotFoundError('Glossary entry not found');
}

const count = (n: number) => n.toLocaleString('en-US');

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
   * Asked before a write's transaction (an import's body may have taken minutes): a token may
   * have been revoked, an account deleted meanwhile. Members are read under the project's lock.
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

  return {
    async list(principal: Principal | undefined, projectId: string): Promise<GlossaryEntryRecord[]> {
      await authorize(principal, projectId, 'read', db);
      return glossary.list(projectId);
    },

    async create(
      principal: Principal | undefined,
      projectId: string,
      input: GlossaryEntryInput,
    ): Promise<GlossaryEntryRecord> {
      await writerCheck.confirm(principal, projectId);
      return db.transaction(async (tx) => {
        await authorize(principal, projectId, 'write', tx);
        await refuseTakenTerm(projectId, input.term, tx);
        if ((await glossary.count(projectId, tx)) >= MAX_GLOSSARY_ENTRIES) {
          throw new ConflictError(
            `The glossary has ${count(MAX_GLOSSARY_ENTRIES)} entries, the most a project may have; ` +
              'delete one first',
          );
        }
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
      });
    },

    async update(
      principal: Principal | undefined,
      projectId: string,
      entryId: string,
      changes: GlossaryEntryChanges,
    ): Promise<GlossaryEntryRecord> {
      await writerCheck.confirm(principal, projectId);
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
        const entry: GlossaryEntryRecord = {
          ...current,
          ...next,
          termKey: glossaryTermKey(next.term),
          updatedAt: Math.max(now(), current.updatedAt),
        };
        await glossary.upsert([entry], tx);
        return entry;
      });
    },

    async delete(principal: Principal | undefined, projectId: string, entryId: string): Promise<void> {
      await writerCheck.confirm(principal, projectId);
      await db.transaction(async (tx) => {
        await authorize(principal, projectId, 'write', tx);
        await requireEntry(projectId, entryId, tx);
        await glossary.delete(projectId, [entryId], tx);
      });
    },

    /**
     * An import, all or nothing: `entries` (validated, no two with one term) become the glossary;
     * with `merge`, they replace the entries of their terms and every other entry stays. An entry
     * whose term is already there keeps its id and creation time.
     */
    async replace(
      principal: Principal | undefined,
      projectId: string,
      entries: GlossaryEntryInput[],
      options: { merge: boolean },
    ): Promise<GlossaryImportResult> {
      await writerCheck.confirm(principal, projectId);
      const result = await db.transaction(async (tx) => {
        await authorize(principal, projectId, 'write', tx);
        const existing = new Map((await glossary.list(projectId, tx)).map((e) => [e.termKey, e]));
        const at = now();
        const writes: GlossaryEntryRecord[] = [];
        const kept = new Set<string>();
        let created = 0;
        let updated = 0;
        let unchanged = 0;
        for (const input of entries) {
          const termKey = glossaryTermKey(input.term);
          const current = existing.get(termKey);
          if (current) kept.add(current.entryId);
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
        const removed = options.merge
          ? []
          : [...existing.values()].filter((e) => !kept.has(e.entryId)).map((e) => e.entryId);
        const total = existing.size + created - removed.length;
        if (total > MAX_GLOSSARY_ENTRIES) {
          throw new ValidationError(
            `body.entries: merging ${count(created)} new terms into the glossary's ${count(existing.size)} ` +
              `entries would make ${count(total)}; a project's glossary holds at most ` +
              `${count(MAX_GLOSSARY_ENTRIES)} (nothing was imported)`,
          );
        }
        await glossary.delete(projectId, removed, tx);
        await glossary.upsert(writes, tx);
        return {
          entries: await glossary.list(projectId, tx),
          created,
          updated,
          unchanged,
          deleted: removed.length,
        };
      });
      const { created, updated, deleted } = result;
      logger.info({ projectId, created, updated, deleted, merge: options.merge }, 'glossary imported');
      return result;
    },
  };
}

export type Glossary = ReturnType<typeof createGlossary>;
