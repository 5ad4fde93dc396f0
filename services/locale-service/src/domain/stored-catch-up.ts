import type { Db } from '@tolk/db';
import { ValidationError } from '@tolk/errors';
import { decodeStoredEntries, forEachInSlices } from '@tolk/locale-file';
import type { Logger } from '@tolk/logger';
import type { LocaleRow, LocalesRepository } from '../data-access/locales-repository.js';
import type { ProjectsRepository } from '../data-access/projects-repository.js';
import { judgeUpload } from './judge-upload.js';
import { targetKeysOf } from './locale-state.js';
import { translationsOf } from './locale-reads.js';
import { encodeFindings, groupFindings } from './locale-findings.js';
import { memoryOfUpload, type Memory } from './memory.js';
import type { MemoryLearning } from './memory-learning.js';
import { decodeProvenance, type ClaimedKeys, type ProvenanceMap } from './provenance.js';
import type { SourceDocuments } from './source-documents.js';

/** The keys an upload would have claimed: those the model or the memory wrote. */
async function claimsOf(provenance: ProvenanceMap): Promise<ClaimedKeys> {
  const claimed = new Map<string, { by: 'ai' | 'memory'; model?: string }>();
  const entries = [...provenance];
  await forEachInSlices(entries.length, (i) => {
    const [key, writer] = entries[i]!;
    if (writer.by === 'ai') claimed.set(key, { by: 'ai', model: writer.model });
    else if (writer.by === 'memory') claimed.set(key, { by: 'memory' });
  });
  return claimed;
}

/**
 * Locales whose stored translations may predate findings and the translation memory (the
 * migration that brought them up to date marks them `storedBehind`) are brought to what an upload
 * of them made from the same version gives today (DESIGN §13, §15): judged — a value the model or
 * the memory wrote held to every rule, any other a person's (or one whose writer is not known) —
 * and taught to the memory whole, at the time they were stored, so that what later uploads taught
 * wins. The lessons are learned right after, as an upload's.
 */
export function createStoredCatchUp(deps: {
  db: Db;
  locales: Pick<LocalesRepository, 'translationsAtRevision' | 'catchUpStored'>;
  projects: Pick<ProjectsRepository, 'find'>;
  documents: Pick<SourceDocuments, 'version'>;
  memory: Pick<Memory, 'record'>;
  learning: Pick<MemoryLearning, 'during'>;
  now: () => number;
  logger: Logger;
}) {
  const { db, locales, projects, documents, memory, learning, now, logger } = deps;

  async function catchUpLocale(
    projectId: string,
    locale: string,
    project: { sourceLocale: string; i18nextPlurals: boolean },
  ) {
    const stored = await locales.translationsAtRevision(projectId, locale);
    if (!stored?.content) return;
    const made = await documents.version(projectId, stored.translatedFrom);
    const target = targetKeysOf(made, locale, project.i18nextPlurals);
    const entries = await decodeStoredEntries(stored.content);
    const judge = (claimed: ClaimedKeys) =>
      judgeUpload(entries, made, { locale, sourceLocale: project.sourceLocale, target, claimed });
    // A value the model wrote that today's rules refuse stays stored, with its findings.
    const judged = await judge(await claimsOf(await decodeProvenance(stored.provenance))).catch(
      (error: unknown) => {
        if (error instanceof ValidationError) return judge(new Map());
        throw error;
      },
    );
    const findings = await groupFindings(judged.findings);
    const lessons = await memoryOfUpload(made, target, await translationsOf(entries), new Map(), findings);
    const encoded = await encodeFindings(findings);
    await db.transaction(async (tx) => {
      // Changed meanwhile (an upload, counts saved): the next refresh takes it again.
      if (!(await locales.catchUpStored(projectId, locale, stored.revision, encoded, tx))) return;
      await memory.record(projectId, locale, lessons, stored.translatedAt ?? now(), tx);
    });
  }

  return {
    /** Brings the project's locales `behind` up to date; a failure is logged and left for the next refresh. */
    async catchUp(projectId: string, behind: readonly LocaleRow[]): Promise<void> {
      try {
        const project = await projects.find(projectId, db);
        if (!project) return;
        await learning.during(projectId, async () => {
          for (const { locale } of behind) await catchUpLocale(projectId, locale, project);
        });
        logger.info(
          { projectId, locales: behind.length },
          'stored translations judged and taught to the memory',
        );
      } catch (error) {
        logger.error(
          { err: error, projectId },
          'stored translations could not be judged and taught to the memory',
        );
      }
    },
  };
}

export type StoredCatchUp = ReturnType<typeof createStoredCatchUp>;
