import type { Principal } from '@tolk/contracts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '@tolk/http';

/**
 * Who may read and upload a project's source (DESIGN §2). The gateway has already let a user
 * through only as a member of the project; a project API token reaches only its own project,
 * `read` for reads and `read_write` for uploads too.
 */
export function canRead(principal: Principal, projectId: string): boolean {
  return principal.kind === 'user' || principal.projectId === projectId;
}

export function canWrite(principal: Principal, projectId: string): boolean {
  return (
    principal.kind === 'user' || (principal.projectId === projectId && principal.permissions === 'read_write')
  );
}

export function projectNotFound(): NotFoundError {
  return new NotFoundError('Project not found');
}

/**
 * No principal → 401. A token of another project learns nothing of this one (404, as a
 * non-member); a `read` token asking to upload → 403.
 */
export function authorize(principal: Principal | undefined, projectId: string, need: 'read' | 'write'): void {
  if (!principal) throw new UnauthorizedError('A valid access token is required');
  if (!canRead(principal, projectId)) throw projectNotFound();
  if (need === 'write' && !canWrite(principal, projectId)) {
    throw new ForbiddenError('This project API token may only read; uploading needs read_write');
  }
}
