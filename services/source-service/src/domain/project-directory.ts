import { canonicalLocale } from '@tolk/contracts';
import type { ProjectClient } from '../data-access/project-client.js';
import type { ProjectsRepository, SourceProject } from '../data-access/projects-repository.js';
import { projectNotFound } from './source-access.js';

const PLAUSIBLE_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * The projects source-service knows: from project-service's events, or — when a request comes
 * before the project's ProjectCreated has been consumed (an upload a millisecond after the
 * project was created) — asked of project-service and remembered.
 */
export function createProjectDirectory(deps: { projects: ProjectsRepository; client: ProjectClient }) {
  const { projects, client } = deps;

  return {
    /** The project, or NotFoundError when it does not exist (or was deleted). */
    async require(projectId: string): Promise<SourceProject> {
      // No project id is longer or has anything but visible ASCII: such a value names nothing.
      if (!PLAUSIBLE_ID.test(projectId)) throw projectNotFound();
      const known = await projects.find(projectId);
      if (known) return known;
      if (await projects.isDeleted(projectId)) throw projectNotFound();
      const facts = await client.findProject(projectId);
      if (!facts || facts.projectId !== projectId) throw projectNotFound();
      await projects.remember({ ...facts, sourceLocale: canonicalLocale(facts.sourceLocale) });
      const remembered = await projects.find(projectId);
      if (!remembered) throw projectNotFound();
      return remembered;
    },
  };
}

export type ProjectDirectory = ReturnType<typeof createProjectDirectory>;
