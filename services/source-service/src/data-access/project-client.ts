import { z } from 'zod';
import { createInternalClient } from '@tolk/http';
import type { Logger } from '@tolk/logger';
import type { ProjectFacts } from './projects-repository.js';

const projectSchema = z.object({
  projectId: z.string().min(1),
  sourceLocale: z.string().min(1),
  updatedAt: z.number().int(),
});

/**
 * project-service's internal API, over HTTP: a project not yet known from its events.
 * Unreachable or faulty → 503 SERVICE_UNAVAILABLE; slower than `timeoutMs` → 504 GATEWAY_TIMEOUT.
 */
export function createProjectClient(deps: {
  baseUrl: string;
  timeoutMs: number;
  signInternalCaller: () => Promise<string>;
  logger: Logger;
}) {
  const client = createInternalClient({ ...deps, service: 'project-service', serves: 'project directory' });

  return {
    /** The project, or undefined when project-service does not know it. */
    async findProject(projectId: string): Promise<ProjectFacts | undefined> {
      const path = `/internal/projects/${encodeURIComponent(projectId)}`;
      const answer = await client.call(path);
      if (answer.status === 404) return undefined;
      return client.expect(projectSchema, answer, path);
    },
  };
}

export type ProjectClient = ReturnType<typeof createProjectClient>;
