import type { Credential } from '../api/auth.js';
import type { TolkApi } from '../api/tolk-api.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import type { Io } from '../io.js';
import type { Output } from '../output.js';
import { sleep } from '../sleep.js';

const POLL_INTERVAL_MS = 2000;
/** How long to wait for a key added in the dashboard, on a terminal; elsewhere nobody is there to add it. */
const DEFAULT_WAIT_SECONDS_TTY = 600;

/**
 * The provider key: the provider's environment variable, else the key the user stored in Tolk
 * (BYOK, read with the user's own access token). With neither, the dashboard's key page is shown
 * and the key is polled for until it appears, TOLK_KEY_WAIT_SECONDS pass (default 600 on a
 * terminal, 0 otherwise) or Ctrl-C.
 */
export async function resolveProviderKey(options: {
  io: Io;
  out: Output;
  api: TolkApi;
  apiUrl: string;
  credential: Credential;
  provider: string;
  envVar: string;
}): Promise<string> {
  const { io, out, api, provider, envVar } = options;
  const fromEnv = io.env[envVar]?.trim();
  if (fromEnv) return fromEnv;
  if (options.credential.kind === 'project-token') {
    throw new CliError(
      'NO_PROVIDER_KEY',
      `No ${provider} key: set ${envVar} (a project API token cannot read the keys stored in Tolk)`,
      ExitCode.auth,
    );
  }
  const first = await api.readProviderKey(provider);
  if (first.hasKey) return first.apiKey;

  const waitSeconds = keyWaitSeconds(io);
  const page = `${options.apiUrl}/keys?provider=${encodeURIComponent(provider)}`;
  if (waitSeconds === 0) {
    throw new CliError(
      'NO_PROVIDER_KEY',
      `No ${provider} key: set ${envVar}, or add your key at ${page} and run this again`,
      ExitCode.auth,
    );
  }
  out.note(`No ${provider} key: set ${envVar}, or add your key at`);
  out.note(`  ${page}`);
  out.note(`Waiting for the key (up to ${waitSeconds} s, Ctrl-C to stop)...`);
  const deadline = Date.now() + waitSeconds * 1000;
  while (Date.now() < deadline) {
    await sleep(Math.min(POLL_INTERVAL_MS, Math.max(0, deadline - Date.now())), io.signal);
    const reading = await api.readProviderKey(provider);
    if (reading.hasKey) {
      out.note(`Found your ${provider} key.`);
      return reading.apiKey;
    }
  }
  throw new CliError(
    'NO_PROVIDER_KEY',
    `No ${provider} key appeared within ${waitSeconds} s: set ${envVar} or add it at ${page}`,
    ExitCode.auth,
  );
}

function keyWaitSeconds(io: Io): number {
  const value = io.env['TOLK_KEY_WAIT_SECONDS'];
  if (value === undefined || value === '') return io.stdinIsTTY ? DEFAULT_WAIT_SECONDS_TTY : 0;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw usageError(`TOLK_KEY_WAIT_SECONDS must be a number of seconds ≥ 0, got ${value}`);
  }
  return seconds;
}
