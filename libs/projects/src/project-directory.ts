import { z } from 'zod';
import { keyRulesData, type KeyRules } from '@tolk/contracts';
import type { Logger } from '@tolk/logger';
import { createInternalClient } from '@tolk/internal-client';
import { projectNotFound } from './project-access.js';

/** A project as project-service describes it, in its events and its internal API. */
export type ProjectFacts = {
  projectId: string;
  /** Canonical (`pt-BR`). */ sourceLocale: string;
  /** Whether keys are read as i18next plural groups (DESIGN §11); absent = true, the default. */
  i18nextPlurals?: boolean;
  /** Glob patterns over keys (DESIGN §13); absent = no rules. */
  keyRules?: KeyRules;
  /** Whether a changed context annotation outdates its key (DESIGN §13); absent = true. */
  outdateOnContextChange?: boolean;
  updatedAt: number;
};

const projectSchema = z.object({
  projectId: z.string().min(1),
  sourceLocale: z.string().min(1),
  i18nextPlurals: z.boolean().optional(),
  keyRules: keyRulesData.optional(),
  outdateOnContextChange: z.boolean().optional(),
  updatedAt: z.number().int(),
});

const userProjectsSchema = z.object({ projectIds: z.array(z.string()) });

/** No project id is longer or has anything but visible ASCII: such a value names nothing. */
const PLAUSIBLE_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * The projects a service knows, kept in its own schema (`store`, its replica) from
 * project-service's events; when a request comes before the project's ProjectCreated has been
 * consumed (an upload a millisecond after the project was created), the project is asked of
 * project-service's internal API and remembered (the replica canonicalizes the source locale). A deleted project stays deleted. project-service unreachable → 503
 * SERVICE_UNAVAILABLE; slower than `timeoutMs` → 504 GATEWAY_TIMEOUT. `service` is the
 * asking service's: its PROJECT_SERVICE_URL, its internal caller's signature, its logger.
 */
export function createProjectDirectory<Project>(
  service: {
    config: { PROJECT_SERVICE_URL: string };
    signInternalCaller: () => Promise<string>;
    logger: Logger;
  },
  store: {
    find(projectId: string): Promise<Project | undefined>;
    isDeleted(projectId: string): Promise<boolean>;
    remember(facts: ProjectFacts): Promise<unknown>;
  },
  timeoutMs: number,
) {
  const client = createInternalClient({
    ...service,
    baseUrl: service.config.PROJECT_SERVICE_URL,
    timeoutMs,
    service: 'project-service',
    serves: 'project directory',
  });

  async function ask(projectId: string): Promise<ProjectFacts | undefined> {
    const path = `/internal/projects/${encodeURIComponent(projectId)}`;
    const answer = await client.call(path);
    if (answer.status === 404) return undefined;
    return client.expect(projectSchema, answer, path);
  }

  return {
    /** The project, or NotFoundError when it does not exist (or was deleted). */
    async require(projectId: string): Promise<Project> {
      if (!PLAUSIBLE_ID.test(projectId)) throw projectNotFound();
      const known = await store.find(projectId);
      if (known) return known;
      if (await store.isDeleted(projectId)) throw projectNotFound();
      const facts = await ask(projectId);
      if (!facts || facts.projectId !== projectId) throw projectNotFound();
      await store.remember(facts);
      const remembered = await store.find(projectId);
      if (!remembered) throw projectNotFound();
      return remembered;
    },

    /**
     * The project as project-service says it now, remembered (for what the replica does not know
     * of a project it has: a column added since its last event). NotFoundError when it is gone.
     */
    async refresh(projectId: string): Promise<Project> {
      const facts = await ask(projectId);
      if (!facts || facts.projectId !== projectId) throw projectNotFound();
      await store.remember(facts);
      const remembered = await store.find(projectId);
      if (!remembered) throw projectNotFound();
      return remembered;
    },

    /**
     * The ids of the projects `userId` is a member of, and so may read, as project-service says
     * now (never kept: a removed membership counts at once).
     */
    async readableBy(userId: string): Promise<string[]> {
      const path = `/internal/users/${encodeURIComponent(userId)}/projects`;
      const answer = await client.call(path);
      if (answer.status === 404) return [];
      return (await client.expect(userProjectsSchema, answer, path)).projectIds;
    },
  };
}

export type ProjectDirectory<Project> = ReturnType<typeof createProjectDirectory<Project>>;
