import type { Db } from '@tolk/db';
import type { SourceLimits } from '@tolk/locale-file';
import type { Logger } from '@tolk/logger';
import type { ProjectDirectory, WriterCheck } from '@tolk/projects';
import type { LocalesRepository } from '../data-access/locales-repository.js';
import type { LocaleProject, ProjectsRepository } from '../data-access/projects-repository.js';
import type { RetiredTranslationsRepository } from '../data-access/retired-translations-repository.js';
import type { BaselineKeeper } from './baseline.js';
import type { CarryOver } from './carry-over.js';
import type { LocaleAccess } from './locale-access.js';
import type { LocaleReads } from './locale-reads.js';
import type { Memory } from './memory.js';
import type { MemoryLearning } from './memory-learning.js';
import type { RefreshLocales } from './refresh-locales.js';
import type { SourceDocuments } from './source-documents.js';
import type { StoredCatchUp } from './stored-catch-up.js';

/** What the locales' use cases are made with (createLocales); each takes the part it uses. */
export type LocalesDeps = {
  db: Db;
  locales: LocalesRepository;
  projects: Pick<ProjectsRepository, 'find' | 'lockKeySettings'>;
  directory: ProjectDirectory<LocaleProject>;
  /** A write commits only if its sender may still write then (the body may have been slow). */
  writerCheck: WriterCheck;
  documents: SourceDocuments;
  carry: CarryOver;
  retired: RetiredTranslationsRepository;
  baseline: BaselineKeeper;
  memory: Pick<Memory, 'lessons' | 'keep' | 'forgetLocale'>;
  learning: Pick<MemoryLearning, 'during'>;
  /** Locales whose stored translations an upgrade left behind, judged and taught at refresh. */
  storedCatchUp: Pick<StoredCatchUp, 'catchUp'>;
  limits: SourceLimits;
  /** What the translation browser keeps of locales it computed, counted in keys. */
  browseCacheMaxKeys: number;
  now: () => number;
  logger: Logger;
};

/** What each use case is made with: the deps, and the reads, refresh and access made of them. */
export type LocaleUseCaseDeps = LocalesDeps & {
  reads: LocaleReads;
  refresh: RefreshLocales['refresh'];
  access: LocaleAccess;
};
