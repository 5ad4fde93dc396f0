import { PROJECT_TOKEN_PREFIX, sessionResponseSchema, type SessionResponse } from '@tolk/contracts';
import { type CredentialStore, type Session } from '../config/credentials.js';
import { ApiError, CliError, ExitCode } from '../errors.js';
import { createApiClient, type Authenticator } from './api-client.js';

/** Who the CLI acts as: TOLK_TOKEN (CI), or the session `tolk login` stored. */
export type Credential =
  | { kind: 'project-token'; authenticator: Authenticator }
  | { kind: 'access-token'; authenticator: Authenticator }
  | { kind: 'session'; authenticator: Authenticator; email: string | undefined };

/** Renew a stored access token this long before it expires. */
const EXPIRY_MARGIN_MS = 30_000;

export function notLoggedIn(apiUrl: string): CliError {
  return new CliError(
    'NOT_LOGGED_IN',
    `Not logged in to ${apiUrl}: run \`tolk login\`, or set TOLK_TOKEN (a project API token or an access token)`,
    ExitCode.auth,
  );
}

export async function resolveCredential(options: {
  env: Readonly<Record<string, string | undefined>>;
  apiUrl: string;
  store: CredentialStore;
  signal: AbortSignal;
}): Promise<Credential | undefined> {
  const fromEnv = options.env['TOLK_TOKEN']?.trim();
  if (fromEnv) {
    const authenticator = { token: async () => fromEnv };
    return fromEnv.startsWith(PROJECT_TOKEN_PREFIX)
      ? { kind: 'project-token', authenticator }
      : { kind: 'access-token', authenticator };
  }
  const session = await options.store.get(options.apiUrl);
  if (!session) return undefined;
  return {
    kind: 'session',
    email: session.email,
    authenticator: sessionAuthenticator(options.store, options.apiUrl, session, options.signal),
  };
}

export function sessionFromResponse(response: SessionResponse, now = Date.now()): Session {
  return {
    refreshToken: response.refreshToken,
    accessToken: response.accessToken,
    accessTokenExpiresAt: now + response.expiresIn * 1000,
    email: response.user.email,
  };
}

/**
 * A stored session: the access token while it lives, then `POST /v1/auth/refresh`. Refresh
 * tokens rotate, so the new one is stored at once (the old one is dead, and reusing it would
 * revoke the whole session). Concurrent callers share one refresh.
 */
function sessionAuthenticator(
  store: CredentialStore,
  apiUrl: string,
  session: Session,
  signal: AbortSignal,
): Authenticator {
  let current = session;
  let refreshing: Promise<boolean> | undefined;

  async function refresh(): Promise<boolean> {
    const client = createApiClient({ apiUrl, signal });
    try {
      const answer = await client.request('POST', '/v1/auth/refresh', {
        body: { refreshToken: current.refreshToken },
        authenticated: false,
        schema: sessionResponseSchema,
      });
      current = sessionFromResponse(answer);
      await store.put(apiUrl, current);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        await store.remove(apiUrl);
        throw new CliError(
          'SESSION_EXPIRED',
          `Your session on ${apiUrl} has expired or was signed out (${error.message}): run \`tolk login\` again`,
          ExitCode.auth,
        );
      }
      throw error;
    }
  }

  function renew(): Promise<boolean> {
    refreshing ??= refresh().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  return {
    async token() {
      if (!current.accessToken || (current.accessTokenExpiresAt ?? 0) < Date.now() + EXPIRY_MARGIN_MS) {
        await renew();
      }
      return current.accessToken!;
    },
    renew,
  };
}
