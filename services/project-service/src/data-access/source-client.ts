import { sourceKeyCharactersResponseSchema } from '@tolk/contracts';
import { createInternalClient, type InternalClientOptions } from '@tolk/internal-client';

/**
 * source-service's internal API, over HTTP: the size of a project's current source, which key
 * rules are budgeted against. Unreachable or faulty → 503 SERVICE_UNAVAILABLE; slower than
 * `timeoutMs` → 504 GATEWAY_TIMEOUT (DESIGN §3).
 */
export function createSourceClient(deps: InternalClientOptions) {
  const client = createInternalClient({ ...deps, service: 'source-service', serves: 'source service' });

  return {
    /** The characters of the keys of the project's current source; 0 before the first upload. */
    async keyCharacters(projectId: string): Promise<number> {
      const path = `/internal/projects/${encodeURIComponent(projectId)}/source/key-characters`;
      const answer = await client.call(path);
      // A project source-service has not heard of yet has no source there.
      if (answer.status === 404) return 0;
      return client.expect(sourceKeyCharactersResponseSchema, answer, path).keyCharacters;
    },
  };
}

export type SourceClient = ReturnType<typeof createSourceClient>;
