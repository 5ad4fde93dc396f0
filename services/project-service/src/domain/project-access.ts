import type { Queryable } from '@tolk/db';
import { ForbiddenError } from '@tolk/errors';
import { projectNotFound } from '@tolk/projects';
import type { MembersRepository } from '../data-access/members-repository.js';
import type { Project, ProjectsRepository, Role } from '../data-access/projects-repository.js';
import { isPlausibleId } from './ids.js';

export { projectNotFound };

export function requireOwner(role: Role): void {
  if (role !== 'owner') throw new ForbiddenError('Only an owner of the project can do this');
}

/**
 * Who may do what with a project, by their role in it: the members and roles project-service
 * alone keeps (the principal's own checks, user or project token, are authorizeProject of
 * @tolk/projects, which every service's routes share). A non-member learns nothing, not even that the project
 * exists (DESIGN §2): every check answers 404 for both.
 */
export function createProjectAccess(deps: { projects: ProjectsRepository; members: MembersRepository }) {
  const { projects, members } = deps;

  async function roleOf(projectId: string, userId: string, q?: Queryable): Promise<Role> {
    const membership = isPlausibleId(projectId) ? await members.find(projectId, userId, q) : undefined;
    if (!membership) throw projectNotFound();
    return membership.role;
  }

  /**
   * Inside a transaction: locks the project (see ProjectsRepository.lock), then reads the
   * caller's role, so the role cannot change before the transaction ends.
   */
  async function lockAsMember(
    projectId: string,
    userId: string,
    tx: Queryable,
  ): Promise<{ project: Project; role: Role }> {
    const project = isPlausibleId(projectId) ? await projects.lock(projectId, tx) : undefined;
    if (!project) throw projectNotFound();
    return { project, role: await roleOf(projectId, userId, tx) };
  }

  return {
    roleOf,
    lockAsMember,

    async lockAsOwner(projectId: string, userId: string, tx: Queryable): Promise<Project> {
      const { project, role } = await lockAsMember(projectId, userId, tx);
      requireOwner(role);
      return project;
    },
  };
}

export type ProjectAccess = ReturnType<typeof createProjectAccess>;
