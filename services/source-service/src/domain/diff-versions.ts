import type { Principal } from '@tolk/contracts';
import { computeSourceDiff, type ParsedSource, type SourceDiff } from '@tolk/locale-file';
import type { SourceUseCaseDeps } from './source-deps.js';
import { versionNotFound } from './source-reads.js';

/** `GET .../source/diff?from&to`: between any two versions, 0 being the empty source. */
export function createDiffVersions({ reads }: SourceUseCaseDeps) {
  return async function diff(
    principal: Principal | undefined,
    projectId: string,
    from: number,
    to: number,
  ): Promise<SourceDiff> {
    const project = await reads.openToRead(principal, projectId);
    const sources: ParsedSource[] = [];
    for (const version of [from, to]) {
      const source = version <= project.currentVersion ? await reads.load(projectId, version) : undefined;
      if (!source) throw versionNotFound(version);
      sources.push(source);
    }
    return computeSourceDiff(sources[0], sources[1]!);
  };
}
