import { projectNotFound } from '@tolk/projects';
import type { SourceUseCaseDeps } from './source-deps.js';

/**
 * For locale-service (internal): the renames and restores of versions `after`+1..`through`
 * (those with any), oldest first; what a SourceChanged leaves out when they are many, or
 * what a consumer missed. A deleted project is NotFoundError.
 */
export function createListCarryOvers({ projects, versions }: SourceUseCaseDeps) {
  return async function carryOvers(projectId: string, after: number, through: number) {
    if (await projects.isDeleted(projectId)) throw projectNotFound();
    return versions.carryOvers(projectId, after, through);
  };
}
