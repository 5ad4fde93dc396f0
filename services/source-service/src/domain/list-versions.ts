import type { Principal } from '@tolk/contracts';
import type { VersionSummary } from '../data-access/versions-repository.js';
import type { SourceUseCaseDeps } from './source-deps.js';

/** `GET .../source/versions`: the project's source versions, newest first. */
export function createListVersions({ versions, reads }: SourceUseCaseDeps) {
  return async function list(principal: Principal | undefined, projectId: string): Promise<VersionSummary[]> {
    await reads.openToRead(principal, projectId);
    return versions.list(projectId);
  };
}
