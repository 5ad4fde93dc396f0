import { sessionFromResponse } from '../api/auth.js';
import { tolkApi } from '../api/tolk-api.js';
import { anonymousClient, authenticatedClient, createContext } from '../context.js';
import { ApiError, CliError, ExitCode } from '../errors.js';
import type { Io } from '../io.js';
import { sleep } from '../sleep.js';

/**
 * The device login (RFC 8628): show the code and the URL, open the browser when asked to and
 * able, poll at the server's interval (slower when told SLOW_DOWN), store the session.
 */
export async function login(io: Io, options: { api?: string; browser: boolean; json: boolean }) {
  const context = await createContext(io, options);
  const { out } = context;
  const api = tolkApi(anonymousClient(context));
  const started = await api.startDeviceLogin();
  // With --json the instructions still reach the person, on stderr.
  const say = out.json ? out.note : out.line;
  say(`To sign in to ${context.apiUrl}, open ${started.verificationUri} and enter the code:`);
  say('');
  say(`    ${started.userCode}`);
  say('');
  if (options.browser) {
    try {
      await io.openBrowser(started.verificationUriComplete);
      say(`Opened ${started.verificationUriComplete} in your browser.`);
    } catch {
      say(`Could not open a browser; open ${started.verificationUriComplete} yourself.`);
    }
  }
  say('Waiting for you to approve this device (Ctrl-C to cancel)...');

  let intervalMs = started.interval * 1000;
  const deadline = Date.now() + started.expiresIn * 1000;
  for (;;) {
    // A little over the interval: polling even a millisecond early is answered SLOW_DOWN.
    await sleep(intervalMs + 100, io.signal);
    try {
      const session = await api.pollDeviceLogin(started.deviceCode);
      await context.store.put(context.apiUrl, sessionFromResponse(session));
      out.line(`Logged in to ${context.apiUrl} as ${session.user.email}.`);
      out.document({ apiUrl: context.apiUrl, userId: session.user.userId, email: session.user.email });
      return ExitCode.ok;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'AUTHORIZATION_PENDING' && Date.now() < deadline) continue;
      if (error.code === 'SLOW_DOWN') {
        intervalMs += 5000;
        continue;
      }
      if (error.code === 'ACCESS_DENIED') {
        throw new CliError('ACCESS_DENIED', 'The sign-in was denied in the browser', ExitCode.auth);
      }
      if (error.code === 'EXPIRED_TOKEN' || error.code === 'AUTHORIZATION_PENDING') {
        throw new CliError(
          'EXPIRED_TOKEN',
          'The code expired before it was approved: run `tolk login` again',
          ExitCode.auth,
        );
      }
      throw error;
    }
  }
}

export async function logout(io: Io, options: { api?: string; json: boolean }) {
  const context = await createContext(io, options);
  const session = await context.store.get(context.apiUrl);
  if (!session) {
    context.out.line(`Not logged in to ${context.apiUrl}.`);
    context.out.document({ apiUrl: context.apiUrl, loggedOut: false });
    return ExitCode.ok;
  }
  // Forget the session locally whatever the server says: a dead refresh token is no loss.
  await context.store.remove(context.apiUrl);
  try {
    await tolkApi(anonymousClient(context)).logout(session.refreshToken);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
  }
  context.out.line(`Logged out of ${context.apiUrl}.`);
  context.out.document({ apiUrl: context.apiUrl, loggedOut: true });
  return ExitCode.ok;
}

export async function whoami(io: Io, options: { json: boolean }) {
  const context = await createContext(io, options);
  const { client, credential } = await authenticatedClient(context);
  if (credential.kind === 'project-token') {
    const token = await credential.authenticator.token();
    context.out.line(`A project API token (${token.slice(0, 10)}…) from TOLK_TOKEN, on ${context.apiUrl}.`);
    context.out.document({ apiUrl: context.apiUrl, kind: 'project-token', tokenPrefix: token.slice(0, 10) });
    return ExitCode.ok;
  }
  const me = await tolkApi(client).me();
  const via = credential.kind === 'session' ? '' : ' (access token from TOLK_TOKEN)';
  context.out.line(`${me.email}${me.name ? ` (${me.name})` : ''} on ${context.apiUrl}${via}`);
  context.out.document({ apiUrl: context.apiUrl, kind: credential.kind, ...me });
  return ExitCode.ok;
}
