import { encodeDocument, encodeRevisions, frameSourceVersion, rebuildDocument } from '@tolk/locale-file';
import { projectNotFound } from '@tolk/projects';
import type { SourceUseCaseDeps } from './source-deps.js';
import { versionNotFound } from './source-reads.js';

/** Version 0, the empty source, as the internal route sends it: the same bytes every time. */
let emptyFrameOnce: Promise<Buffer> | undefined;
function emptyFrame(): Promise<Buffer> {
  emptyFrameOnce ??= Promise.all([encodeDocument('{}'), encodeRevisions([])]).then(([document, revisions]) =>
    frameSourceVersion(document, revisions),
  );
  return emptyFrameOnce;
}

/**
 * For locale-service (internal): the stored document of a version, with every key's revision,
 * as it is kept (gzip JSON, see encodeStoredSource); `current` is the project's current version, 0
 * (the empty source) before the first upload or when source-service has not heard of the
 * project. A deleted project, or a version that does not exist, is NotFoundError.
 */
export function createReadStoredVersion({ projects, versions, reads }: SourceUseCaseDeps) {
  return async function storedVersion(
    projectId: string,
    wanted: number | 'current',
  ): Promise<{ version: number; content: Buffer }> {
    if (await projects.isDeleted(projectId)) throw projectNotFound();
    const project = await projects.find(projectId);
    const version = wanted === 'current' ? (project?.currentVersion ?? 0) : wanted;
    if (version === 0) return { version, content: await emptyFrame() };
    const stored =
      project && version <= project.currentVersion ? await versions.stored(projectId, version) : undefined;
    if (!stored) throw versionNotFound(version);
    if (stored.format === 2) {
      return { version, content: frameSourceVersion(stored.document, stored.revisions) };
    }
    // Stored before format 2: written again in it, revisions derived if need be.
    const source = await reads.load(projectId, version);
    if (!source) throw versionNotFound(version);
    const [document, revisions] = await Promise.all([
      encodeDocument(JSON.stringify(rebuildDocument(source))),
      encodeRevisions(source.revisions),
    ]);
    await versions.upgrade(projectId, version, { document, revisions });
    return { version, content: frameSourceVersion(document, revisions) };
  };
}
