import type { Db } from '@tolk/db';
import { createProjectReplica } from '@tolk/projects';

/** What token-service knows of a project: that it exists. */
export type TokenProject = { projectId: string };

/**
 * The project replica: only that projects exist. Creating a token locks the project's row, so
 * ProjectDeleted (burying it) waits for a creation in progress and then revokes that token too.
 */
export function createProjectsRepository(db: Db) {
  return createProjectReplica(db, {
    toProject: (row: { project_id: string }): TokenProject => ({ projectId: row.project_id }),
  });
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
