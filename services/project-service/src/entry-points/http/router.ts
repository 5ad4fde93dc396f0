import { Router, type Request } from 'express';
import { parseInput, requireUser, route } from '@tolk/http';
import { authorizeProject } from '@tolk/projects';
import type { MemberProject, Project } from '../../data-access/projects-repository.js';
import type { AccountRemoval } from '../../domain/account-removal.js';
import type { Member, Members } from '../../domain/members.js';
import type { Projects } from '../../domain/projects.js';
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
} from './schemas.js';

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
      outdateOnContextChange: project.settings.outdateOnContextChange,
    },
    role: project.role,
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
  };
}

/** A named path segment; never a list, since these routes have no wildcards. */
function param(req: Request, name: 'projectId' | 'userId'): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

function toMemberResponse(member: Member): MemberResponse {
  return { userId: member.userId, email: member.email, role: member.role };
}

export function createProjectRouter(deps: {
  projects: Projects;
  members: Members;
  accountRemoval: Pick<AccountRemoval, 'soleOwnedProjects'>;
}) {
  const { projects, members, accountRemoval } = deps;
  const router = Router();

  // Answers depend on who asks (role, membership): no shared or browser cache may keep one.
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

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
      const projectId = param(req, 'projectId');
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
      res.json(toProjectResponse(await projects.update(userId, param(req, 'projectId'), changes)));
    },
    delete: async (req, res) => {
      const { userId } = requireUser(req);
      await projects.delete(userId, param(req, 'projectId'));
      res.status(204).end();
    },
  });

  route(router, '/v1/projects/:projectId/members', {
    get: async (req, res) => {
      const { userId } = requireUser(req);
      const list = await members.list(userId, param(req, 'projectId'));
      res.json({ members: list.map(toMemberResponse) });
    },
    post: async (req, res) => {
      const { userId } = requireUser(req);
      const input = parseInput(addMemberRequestSchema, req.body);
      res.status(201).json(toMemberResponse(await members.add(userId, param(req, 'projectId'), input)));
    },
  });

  route(router, '/v1/projects/:projectId/members/:userId', {
    patch: async (req, res) => {
      const { userId } = requireUser(req);
      const { role } = parseInput(updateMemberRequestSchema, req.body);
      const member = await members.changeRole(userId, param(req, 'projectId'), param(req, 'userId'), role);
      res.json(toMemberResponse(member));
    },
    delete: async (req, res) => {
      const { userId } = requireUser(req);
      await members.remove(userId, param(req, 'projectId'), param(req, 'userId'));
      res.status(204).end();
    },
  });

  // ---- internal: the service frame lets only internal callers (the gateway) reach these ----

  route(router, '/internal/projects/:projectId', {
    get: async (req, res) => {
      const project = await projects.describe(param(req, 'projectId'));
      const answer: InternalProjectResponse = {
        projectId: project.projectId,
        name: project.name,
        sourceLocale: project.sourceLocale,
        i18nextPlurals: project.settings.i18nextPlurals,
        outdateOnContextChange: project.settings.outdateOnContextChange,
        updatedAt: project.updatedAt,
      };
      res.json(answer);
    },
  });

  route(router, '/internal/projects/:projectId/members/:userId', {
    get: async (req, res) => {
      const membership: MembershipResponse = await members.membership(
        param(req, 'projectId'),
        param(req, 'userId'),
      );
      res.json(membership);
    },
  });

  route(router, '/internal/users/:userId/sole-owned-projects', {
    get: async (req, res) => {
      const projectsOfUser = await accountRemoval.soleOwnedProjects(param(req, 'userId'));
      const answer: SoleOwnedProjectsResponse = { projects: projectsOfUser };
      res.json(answer);
    },
  });

  return router;
}
