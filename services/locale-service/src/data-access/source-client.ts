import { SOURCE_VERSION_HEADER, carryOverResponseSchema, type CarryOverResponse } from '@tolk/contracts';
import { createInternalClient, type InternalClientOptions } from '@tolk/internal-client';
import { decodeSourceVersion, type ParsedSource } from '@tolk/locale-file';

/** A source version as locale-service needs it: the parsed file and each key's revision. */
export type SourceVersion = ParsedSource & { version: number; revisions: number[] };

/**
 * source-service's internal API: a version's stored document. Unreachable or faulty → 503
 * SERVICE_UNAVAILABLE; slower than `timeoutMs` → 504 GATEWAY_TIMEOUT.
 */
export function createSourceClient(deps: InternalClientOptions) {
  const client = createInternalClient({ ...deps, service: 'source-service', serves: 'source file store' });

  return {
    /**
     * Version `version` of the project's source, or its current version; undefined when there is
     * no such version (or project).
     */
    async fetchVersion(projectId: string, version: number | 'current'): Promise<SourceVersion | undefined> {
      const path = `/internal/projects/${encodeURIComponent(projectId)}/source/versions/${version}`;
      const answer = await client.fetchBytes(path);
      if (answer.status === 404) return undefined;
      const number = Number(answer.headers.get(SOURCE_VERSION_HEADER));
      if (answer.status !== 200 || !Number.isInteger(number) || number < 0) {
        throw client.unexpected(path, answer.status);
      }
      const source = await decodeSourceVersion(answer.bytes).catch(() => undefined);
      if (!source) throw client.unexpected(path, 200);
      return { ...source, version: number };
    },

    /**
     * The renames and restores of versions `after`+1..`through` (those with any), oldest first;
     * undefined when the project is gone.
     */
    async fetchCarryOvers(
      projectId: string,
      after: number,
      through: number,
    ): Promise<CarryOverResponse['versions'] | undefined> {
      const path =
        `/internal/projects/${encodeURIComponent(projectId)}/source/carry-overs` +
        `?after=${after}&through=${through}`;
      const answer = await client.call(path);
      if (answer.status === 404) return undefined;
      return (await client.expect(carryOverResponseSchema, answer, path)).versions;
    },
  };
}

export type SourceClient = ReturnType<typeof createSourceClient>;
