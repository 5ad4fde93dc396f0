import { Router } from 'express';
import { parseInput } from '@tolk/errors';
import { noStore, pathParam, requireUser, route } from '@tolk/http';
import { authorizeProject } from '@tolk/projects';
import type { MemberProject, Project } from '../../data-access/projects-repository.js';
import type { AccountRemoval } from '../../domain/account-removal.js';
import type { Glossary } from '../../domain/glossary.js';
import type { Member, Members } from '../../domain/members.js';
import type { Projects } from '../../domain/projects.js';
import { addGlossaryRoutes, type GlossaryImportOptions } from './glossary-routes.js';
import {
  addMemberRequestSchema,
  createProjectRequestSchema,
  updateMemberRequestSchema,
  updateProjectRequestSchema,
  type InternalProjectResponse,
  type MemberResponse,
  type MembershipResponse,
  type ProjectResponse,
  type SoleOwnedProjectsResponse,
  type UserProjectsResponse,
} from '@tolk/contracts';

function toProjectResponse(project: MemberProject | (Project & { role: null })): ProjectResponse {
  return {
    projectId: project.projectId,
    name: project.name,
    sourceLocale: project.sourceLocale,
    settings: {
      provider: project.settings.provider,
      model: project.settings.model,
      instructions: project.settings.instructions,
      i18nextPlurals: project.settings.i18nextPlurals,
      keyRules: project.settings.keyRules,
      outdateOnContextChange: project.settings.outdateOnContextChange,
    },
    role: project.role,
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
  };
}

function toMemberResponse(member: Member): MemberResponse {
  return { userId: member.userId, email: member.email, role: member.role };
}

export function createProjectRouter(deps: {
  projects: Projects;
  members: Members;
  accountRemoval: Pick<AccountRemoval, 'soleOwnedProjects'>;
  glossary: Glossary;
  glossaryImports: GlossaryImportOptions;
}) {
  const { projects, members, accountRemoval, glossary } = deps;
  const router = Router();

  // Answers depend on who asks (role, membership): no shared or browser cache may keep one.
  router.use(noStore);

  route(router, '/v1/projects', {
    get: async (req, res) => {
      const { userId } = requireUser(req);
      res.json({ projects: (await projects.list(userId)).map(toProjectResponse) });
    },
    post: async (req, res) => {
      const { userId } = requireUser(req);
      const input = parseInput(createProjectRequestSchema, req.body);
      res.status(201).json(toProjectResponse(await projects.create(userId, input)));
    },
  });

  route(router, '/v1/projects/:projectId', {
    get: async (req, res) => {
      const projectId = pathParam(req, 'projectId');
      // A project API token reads its own project (DESIGN §9): the CLI's configuration in CI.
      if (req.principal?.kind === 'project_token') {
        authorizeProject(req.principal, projectId, 'read');
        res.json(toProjectResponse({ ...(await projects.describe(projectId)), role: null }));
        return;
      }
      const { userId } = requireUser(req);
      res.json(toProjectResponse(await projects.get(userId, projectId)));
    },
    patch: async (req, res) => {
      const { userId } = requireUser(req);
      const changes = parseInput(updateProjectRequestSchema, req.body);
      res.json(toProjectResponse(await projects.update(userId, pathParam(req, 'projectId'), changes)));
    },
    delete: async (req, res) => {
      const { userId } = requireUser(req);
      await projects.delete(userId, pathParam(req, 'projectId'));
      res.status(204).end();
    },
  });

  route(router, '/v1/projects/:projectId/members', {
    get: async (req, res) => {
      const { userId } = requireUser(req);
      const list = await members.list(userId, pathParam(req, 'projectId'));
      res.json({ members: list.map(toMemberResponse) });
    },
    post: async (req, res) => {
      const { userId } = requireUser(req);
      const input = parseInput(addMemberRequestSchema, req.body);
      res.status(201).json(toMemberResponse(await members.add(userId, pathParam(req, 'projectId'), input)));
    },
  });

  route(router, '/v1/projects/:projectId/members/:userId', {
    patch: async (req, res) => {
      const { userId } = requireUser(req);
      const { role } = parseInput(updateMemberRequestSchema, req.body);
      const member = await members.changeRole(
        userId,
        pathParam(req, 'projectId'),
        pathParam(req, 'userId'),
        role,
      );
      res.json(toMemberResponse(member));
    },
    delete: async (req, res) => {
      const { userId } = requireUser(req);
      await members.remove(userId, pathParam(req, 'projectId'), pathParam(req, 'userId'));
      res.status(204).end();
    },
  });

  addGlossaryRoutes(router, glossary, deps.glossaryImports);

  // ---- internal: the service frame lets only internal callers (the gateway) reach these ----

  route(router, '/internal/projects/:projectId', {
    get: async (req, res) => {
      const project = await projects.describe(pathParam(req, 'projectId'));
      const answer: InternalProjectResponse = {
        projectId: project.projectId,
        name: project.name,
        sourceLocale: project.sourceLocale,
        i18nextPlurals: project.settings.i18nextPlurals,
        keyRules: project.settings.keyRules,
        outdateOnContextChange: project.settings.outdateOnContextChange,
        updatedAt: project.updatedAt,
      };
      res.json(answer);
    },
  });

  route(router, '/internal/projects/:projectId/members/:userId', {
    get: async (req, res) => {
      const membership: MembershipResponse = await members.membership(
        pathParam(req, 'projectId'),
        pathParam(req, 'userId'),
      );
      res.json(membership);
    },
  });

  route(router, '/internal/users/:userId/sole-owned-projects', {
    get: async (req, res) => {
      const projectsOfUser = await accountRemoval.soleOwnedProjects(pathParam(req, 'userId'));
      const answer: SoleOwnedProjectsResponse = { projects: projectsOfUser };
      res.json(answer);
    },
  });

  route(router, '/internal/users/:userId/projects', {
    get: async (req, res) => {
      const answer: UserProjectsResponse = {
        projectIds: await members.projectIdsOf(pathParam(req, 'userId')),
      };
      res.json(answer);
    },
  });

  return router;
}
