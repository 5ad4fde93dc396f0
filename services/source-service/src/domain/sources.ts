import { createDiffVersions } from './diff-versions.js';
import { createListCarryOvers } from './list-carry-overs.js';
import { createListVersions } from './list-versions.js';
import { createReadCurrentSource } from './read-current-source.js';
import { createReadKeyCharacters } from './read-key-characters.js';
import { createReadSourceVersion } from './read-source-version.js';
import { createReadStoredVersion } from './read-stored-version.js';
import type { SourcesDeps } from './source-deps.js';
import { createSourceReads } from './source-reads.js';
import { createUploadSource } from './upload-source.js';

/**
 * Source files of a project (DESIGN §4), one use case a file: uploads create gapless versions with
 * their diff and a SourceChanged event in the same transaction; reads rebuild the file with its
 * own nesting.
 */
export function createSources(deps: SourcesDeps) {
  const made = { ...deps, reads: createSourceReads(deps) };
  return {
    upload: createUploadSource(made),
    current: createReadCurrentSource(made),
    version: createReadSourceVersion(made),
    list: createListVersions(made),
    diff: createDiffVersions(made),
    // For the other services (internal routes).
    stored: createReadStoredVersion(made),
    carryOvers: createListCarryOvers(made),
    keyCharacters: createReadKeyCharacters(made),
  };
}

export type Sources = ReturnType<typeof createSources>;
