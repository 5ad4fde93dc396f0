/**
 * The session and every call to the public API (same origin, `Authorization: Bearer`).
 *
 * - The access token lives in memory only; the refresh token in localStorage, so that the pages
 *   the CLI opens in a new tab (/keys, /device) find the session. The strict CSP (no inline or
 *   foreign script) and rendering every value as text are what keep it from other scripts.
 * - Refresh tokens rotate and reusing one revokes the whole family, so a refresh is single-flight
 *   in a tab and serialised across tabs with a Web Lock; inside the lock the token is read again
 *   from storage, so a tab never sends one that another tab has already rotated.
 * - The access token is renewed a minute before it expires, and once more on any 401.
 */
import type { SessionResponse, User } from './types.js';

const REFRESH_TOKEN_KEY = 'tolk.refreshToken';
const REFRESH_LOCK = 'tolk.session-refresh';
const RENEW_BEFORE_MS = 60_000;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Session = { user: User; accessToken: string; expiresAt: number };

let session: Session | null = null;
let renewTimer: number | undefined;
let refreshing: Promise<boolean> | null = null;
const listeners = new Set<() => void>();

export function currentUser(): User | null {
  return session?.user ?? null;
}

/** Called whenever the user signs in or out (in this tab or another). */
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function storedRefreshToken(): string | null {
  try {
    return localStorage.getItem(REFRESH_TOKEN_KEY);
  } catch {
    return null;
  }
}

function storeRefreshToken(token: string | null): void {
  try {
    if (token === null) localStorage.removeItem(REFRESH_TOKEN_KEY);
    else localStorage.setItem(REFRESH_TOKEN_KEY, token);
  } catch {
    // Storage disabled: the session lasts as long as this page.
  }
}

function setSession(next: Session | null): void {
  const changed = (session?.user.userId ?? null) !== (next?.user.userId ?? null);
  session = next;
  window.clearTimeout(renewTimer);
  if (next) {
    const delay = Math.max(5_000, next.expiresAt - Date.now() - RENEW_BEFORE_MS);
    renewTimer = window.setTimeout(() => void refreshSession().catch(() => undefined), delay);
  }
  if (changed) for (const listener of listeners) listener();
}

function startSession(answer: SessionResponse): void {
  storeRefreshToken(answer.refreshToken);
  setSession({
    user: answer.user,
    accessToken: answer.accessToken,
    expiresAt: Date.now() + answer.expiresIn * 1000,
  });
}

async function send(method: string, path: string, body?: unknown, accessToken?: string): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  try {
    return await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(
      0,
      'NETWORK_ERROR',
      'Could not reach the Tolk server. Check the connection and try again.',
    );
  }
}

/** The answer's JSON, or an ApiError carrying the server's own message. */
async function read<T>(response: Response): Promise<T> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.ok) return parsed as T;
  const error = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (error && typeof error.message === 'string') {
    throw new ApiError(response.status, String(error.code ?? 'ERROR'), error.message);
  }
  throw new ApiError(
    response.status,
    'HTTP_ERROR',
    `The server answered ${response.status} ${response.statusText}`.trim(),
  );
}

function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  return locks ? (locks.request(REFRESH_LOCK, work) as Promise<T>) : work();
}

/**
 * Renews the session with the stored refresh token: true when signed in afterwards. A refused
 * token signs out; a network failure or 5xx keeps the token and throws.
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= withRefreshLock(async () => {
    const refreshToken = storedRefreshToken();
    if (!refreshToken) {
      setSession(null);
      return false;
    }
    const response = await send('POST', '/v1/auth/refresh', { refreshToken });
    if (response.status === 400 || response.status === 401) {
      await response.body?.cancel();
      // Another tab may have stored a newer one meanwhile (without Web Locks): keep that.
      if (storedRefreshToken() === refreshToken) storeRefreshToken(null);
      setSession(null);
      return false;
    }
    startSession(await read<SessionResponse>(response));
    return true;
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

export async function signIn(email: string, password: string): Promise<void> {
  startSession(await read<SessionResponse>(await send('POST', '/v1/auth/login', { email, password })));
}

export async function signUp(email: string, password: string, name: string): Promise<void> {
  const body = { email, password, name: name.trim() || null };
  startSession(await read<SessionResponse>(await send('POST', '/v1/auth/signup', body)));
}

export async function signOut(): Promise<void> {
  const refreshToken = storedRefreshToken();
  storeRefreshToken(null);
  setSession(null);
  if (refreshToken) await send('POST', '/v1/auth/logout', { refreshToken }).catch(() => undefined);
}

/** A call as the signed-in user: renewed first when the access token is about to expire, retried once after a 401. */
export async function api<T = void>(method: string, path: string, body?: unknown): Promise<T> {
  if (!session || session.expiresAt - Date.now() < 10_000) await refreshSession();
  if (!session) throw new ApiError(401, 'UNAUTHORIZED', 'You are signed out. Sign in again.');
  const usedToken = session.accessToken;
  let response = await send(method, path, body, usedToken);
  if (response.status === 401) {
    await response.body?.cancel();
    // Another call may have renewed it already.
    if (session?.accessToken === usedToken) await refreshSession();
    if (!session) throw new ApiError(401, 'UNAUTHORIZED', 'Your session has ended. Sign in again.');
    response = await send(method, path, body, session.accessToken);
  }
  return read<T>(response);
}

// Another tab signed out (or in): follow it.
window.addEventListener('storage', (event) => {
  if (event.key !== REFRESH_TOKEN_KEY && event.key !== null) return;
  if (event.newValue === null && session) setSession(null);
  else if (event.newValue !== null && !session) void refreshSession().catch(() => undefined);
});
