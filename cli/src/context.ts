import { createApiClient, type ApiClient, type RetryInfo } from './api/api-client.js';
import { notLoggedIn, resolveCredential, type Credential } from './api/auth.js';
import { createCredentialStore, type CredentialStore } from './config/credentials.js';
import { findProjectConfig, loadProjectConfig, type LoadedProjectConfig } from './config/project-config.js';
import { usageError } from './errors.js';
import type { Io } from './io.js';
import { createOutput, type Output } from './output.js';

export const DEFAULT_API_URL = 'http://localhost:8080';

/** What every command starts from: the io, output, the credential store and the server's URL. */
export type Context = {
  io: Io;
  out: Output;
  store: CredentialStore;
  apiUrl: string;
};

/**
 * The API URL: `--api`, else TOLK_API_URL, else the project's tolk.json, else the server
 * `tolk login` last signed in to, else http://localhost:8080.
 */
export async function createContext(
  io: Io,
  options: { api?: string; json?: boolean; projectConfig?: LoadedProjectConfig },
): Promise<Context> {
  const store = createCredentialStore(io.env);
  const out = createOutput(io, options.json ?? false);
  let apiUrl = options.api || io.env['TOLK_API_URL'];
  if (!apiUrl) {
    const projectConfig =
      options.projectConfig ??
      ((await findProjectConfig(io.cwd)) ? await loadProjectConfig(io.cwd) : undefined);
    apiUrl = projectConfig?.config.apiUrl;
  }
  apiUrl ||= (await store.defaultApiUrl()) || DEFAULT_API_URL;
  return { io, out, store, apiUrl: normalizeApiUrl(apiUrl) };
}

export function normalizeApiUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`${value} is not a URL (expected something like ${DEFAULT_API_URL})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`${value} is not an http(s) URL`);
  }
  return url.href.replace(/\/+$/, '');
}

/** A client for requests that need no token (login). */
export function anonymousClient(context: Context): ApiClient {
  return createApiClient({
    apiUrl: context.apiUrl,
    signal: context.io.signal,
    ...retryOptions(context),
  });
}

/** A client acting as TOLK_TOKEN or the stored session; fails with exit 3 when there is neither. */
export async function authenticatedClient(
  context: Context,
): Promise<{ client: ApiClient; credential: Credential }> {
  const credential = await resolveCredential({
    env: context.io.env,
    apiUrl: context.apiUrl,
    store: context.store,
    signal: context.io.signal,
  });
  if (!credential) throw notLoggedIn(context.apiUrl);
  const client = createApiClient({
    apiUrl: context.apiUrl,
    auth: credential.authenticator,
    signal: context.io.signal,
    ...retryOptions(context),
  });
  return { client, credential };
}

/** The project of the current directory, with a client for its server. */
export async function projectContext(io: Io, options: { json?: boolean }) {
  const project = await loadProjectConfig(io.cwd);
  const context = await createContext(io, { ...options, projectConfig: project });
  const { client, credential } = await authenticatedClient(context);
  return { ...context, project, client, credential } as Context & {
    project: LoadedProjectConfig;
    client: ApiClient;
    credential: Credential;
  };
}

/** TOLK_MAX_RETRIES: how often a 429, a 5xx or a lost connection is retried (default 4). */
function retryOptions(context: Context) {
  const value = context.io.env['TOLK_MAX_RETRIES'];
  const maxRetries = value === undefined || value === '' ? undefined : Number(value);
  if (maxRetries !== undefined && (!Number.isInteger(maxRetries) || maxRetries < 0)) {
    throw usageError(`TOLK_MAX_RETRIES must be a whole number ≥ 0, got ${value}`);
  }
  return {
    maxRetries,
    onRetry: ({ attempt, maxRetries, delayMs, reason, request }: RetryInfo) =>
      context.out.note(
        `${request}: ${reason}; waiting ${(delayMs / 1000).toFixed(1)} s before retry ${attempt} of ${maxRetries}`,
      ),
  };
}
