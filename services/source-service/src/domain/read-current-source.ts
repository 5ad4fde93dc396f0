import { NotFoundError } from '@tolk/errors';
import type { Principal } from '@tolk/contracts';
import type { SourceUseCaseDeps } from './source-deps.js';
import type { SourceFile } from './source-reads.js';

/** `GET .../source`: the current version; 404 before the first upload. */
export function createReadCurrentSource({ reads }: SourceUseCaseDeps) {
  return async function current(principal: Principal | undefined, projectId: string): Promise<SourceFile> {
    const project = await reads.openToRead(principal, projectId);
    if (project.currentVersion === 0 || project.sourceUpdatedAt === null) {
      throw new NotFoundError('No source has been uploaded to this project yet');
    }
    return reads.sourceFile(projectId, project.sourceLocale, project.currentVersion, project.sourceUpdatedAt);
  };
}
