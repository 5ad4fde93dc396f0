import { createInternalClient, type InternalClientOptions } from '@tolk/internal-client';
import { soleOwnedProjectsResponseSchema } from '@tolk/contracts';

export type OwnedProject = { projectId: string; name: string };

/**
 * project-service's internal API, over HTTP: the projects a user is the only owner of, which
 * deleting the account deletes too. Unreachable or faulty → 503; slower than `timeoutMs` → 504.
 */
export function createProjectClient(deps: InternalClientOptions) {
  const client = createInternalClient({ ...deps, service: 'project-service', serves: 'project directory' });

  return {
    async soleOwnedProjects(userId: string): Promise<OwnedProject[]> {
      const path = `/internal/users/${encodeURIComponent(userId)}/sole-owned-projects`;
      return client.expect(soleOwnedProjectsResponseSchema, await client.call(path), path).projects;
    },
  };
}

export type ProjectClient = ReturnType<typeof createProjectClient>;
