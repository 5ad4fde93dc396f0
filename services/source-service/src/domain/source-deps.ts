import type { Db } from '@tolk/db';
import type { SourceLimits, VersionCache } from '@tolk/locale-file';
import type { Logger } from '@tolk/logger';
import type { ProjectDirectory, WriterCheck } from '@tolk/projects';
import type { BaselinesRepository } from '../data-access/baselines-repository.js';
import type { DeletedKeysRepository } from '../data-access/deleted-keys-repository.js';
import type { ProjectsRepository, SourceProject } from '../data-access/projects-repository.js';
import type { VersionsRepository } from '../data-access/versions-repository.js';
import type { SourceVersion } from './key-revisions.js';
import type { SourceReads } from './source-reads.js';

/** What the sources' use cases are made with (createSources); each takes the part it uses. */
export type SourcesDeps = {
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
};

/** What each use case is made with: the deps, and the reads made of them. */
export type SourceUseCaseDeps = SourcesDeps & { reads: SourceReads };
