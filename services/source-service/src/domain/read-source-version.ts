import type { Principal } from '@tolk/contracts';
import type { SourceUseCaseDeps } from './source-deps.js';
import { versionNotFound, type SourceFile } from './source-reads.js';

/** `GET .../source/versions/{version}`: that version, its pendingDiff from the baseline to it. */
export function createReadSourceVersion({ versions, reads }: SourceUseCaseDeps) {
  return async function readVersion(
    principal: Principal | undefined,
    projectId: string,
    version: number,
  ): Promise<SourceFile> {
    const project = await reads.openToRead(principal, projectId);
    const summary = version > 0 ? await versions.find(projectId, version) : undefined;
    if (!summary) throw versionNotFound(version);
    return reads.sourceFile(projectId, project.sourceLocale, version, summary.createdAt);
  };
}
