import { UnauthorizedError } from '@tolk/http';
import type { PrincipalResolver } from './authenticate.js';

/**
 * Stand-in until token-service resolves project API tokens (and the gateway caches them in
 * Redis): such a token is refused with a message that says why, rather than as "invalid".
 */
export const refuseProjectTokens: PrincipalResolver = async () => {
  throw new UnauthorizedError('Project API tokens are not supported yet; use an access token (tolk login)');
};
