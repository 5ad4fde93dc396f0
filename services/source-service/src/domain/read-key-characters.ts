import { keyCharacters as keyCharactersOf } from '@tolk/contracts';
import { projectNotFound } from '@tolk/projects';
import type { SourceUseCaseDeps } from './source-deps.js';
import { versionNotFound } from './source-reads.js';

/**
 * For project-service (internal): the characters of the current version's keys, what the
 * work of key rules is counted against; version 0, no keys, before the first upload or when
 * source-service has not heard of the project. A deleted project is NotFoundError.
 */
export function createReadKeyCharacters({ projects, reads }: SourceUseCaseDeps) {
  return async function keyCharacters(projectId: string) {
    if (await projects.isDeleted(projectId)) throw projectNotFound();
    const version = (await projects.find(projectId))?.currentVersion ?? 0;
    const source = await reads.load(projectId, version);
    if (!source) throw versionNotFound(version);
    return { version, keyCount: source.keys.length, keyCharacters: keyCharactersOf(source.keys) };
  };
}
