import { z } from 'zod';
import { INTERNAL_CALLER_HEADER, REQUEST_ID_HEADER } from '@tolk/contracts';
import { AppError } from '@tolk/http';
import { currentRequestId, type Logger } from '@tolk/logger';
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
  const { baseUrl, timeoutMs, signInternalCaller, logger } = deps;

  function unavailable(details: Record<string, unknown>, why: string): AppError {
    logger.error(details, `project-service ${why}`);
    return new AppError('SERVICE_UNAVAILABLE', 'The project directory is unavailable; try again shortly');
  }

  return {
    /** The project, or undefined when project-service does not know it. */
    async findProject(projectId: string): Promise<ProjectFacts | undefined> {
      const path = `/internal/projects/${encodeURIComponent(projectId)}`;
      const headers: Record<string, string> = {
        accept: 'application/json',
        [INTERNAL_CALLER_HEADER]: await signInternalCaller(),
      };
      const requestId = currentRequestId();
      if (requestId) headers[REQUEST_ID_HEADER] = requestId;
      let status: number;
      let body: unknown;
      try {
        const response = await fetch(`${baseUrl}${path}`, {
          headers,
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        const text = await response.text();
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
      } catch (err) {
        if (err instanceof Error && err.name === 'TimeoutError') {
          logger.warn({ path, timeoutMs }, 'project-service did not answer in time');
          throw new AppError(
            'GATEWAY_TIMEOUT',
            `The project directory did not answer within ${timeoutMs} ms`,
          );
        }
        throw unavailable({ err, path }, 'is not reachable');
      }
      if (status === 404) return undefined;
      const parsed = projectSchema.safeParse(body);
      if (status !== 200 || !parsed.success) throw unavailable({ path, status }, 'answered unexpectedly');
      return parsed.data;
    },
  };
}

export type ProjectClient = ReturnType<typeof createProjectClient>;
