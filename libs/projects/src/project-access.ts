import type { Principal } from '@tolk/contracts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '@tolk/errors';

/**
 * What a principal may do with one project's data (DESIGN §2). The gateway lets a user through
 * only as a member of the project, so a user may read, write and manage. A project API token
 * reaches only its own project: `read` reads, `read_write` also uploads (source, translations),
 * and no token ever manages (locales, tokens, members, the project).
 */
export type ProjectNeed = 'read' | 'write' | 'manage';

export function projectNotFound(): NotFoundError {
  return new NotFoundError('Project not found');
}

/**
 * No principal → 401. A token of another project learns nothing of this one (404, as for a
 * non-member); a token without the permission → 403 naming what is needed.
 */
export function authorizeProject(
  principal: Principal | undefined,
  projectId: string,
  need: ProjectNeed,
): asserts principal is Principal {
  if (!principal) throw new UnauthorizedError('A valid access token is required');
  if (principal.kind === 'user') return;
  if (principal.projectId !== projectId) throw projectNotFound();
  if (need === 'manage') {
    throw new ForbiddenError('Project API tokens cannot do this; it needs a user access token');
  }
  if (need === 'write' && principal.permissions !== 'read_write') {
    throw new ForbiddenError('This project API token may only read; uploading needs read_write');
  }
}
