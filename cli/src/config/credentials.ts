import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { CliError, ExitCode } from '../errors.js';

/** One signed-in user on one Tolk server. */
export type Session = {
  refreshToken: string;
  accessToken?: string;
  /** Epoch milliseconds. */
  accessTokenExpiresAt?: number;
  email?: string;
};

const sessionSchema = z.object({
  refreshToken: z.string().min(1),
  accessToken: z.string().optional(),
  accessTokenExpiresAt: z.number().optional(),
  email: z.string().optional(),
});

const credentialsSchema = z.object({
  /** The server `tolk login` last signed in to: the default API URL outside a project. */
  defaultApiUrl: z.string().optional(),
  sessions: z.record(z.string(), sessionSchema).default({}),
});
type Credentials = z.infer<typeof credentialsSchema>;

/** `$XDG_CONFIG_HOME/tolk`, else `~/.config/tolk`. */
export function configDir(env: Readonly<Record<string, string | undefined>>): string {
  const base = env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config');
  return join(base, 'tolk');
}

/**
 * The refresh tokens of `tolk login`, one per API URL, in `credentials.json` of the config
 * directory: the directory 0700, the file 0600, written whole through a temporary file so a
 * crash never leaves half a file.
 */
export function createCredentialStore(env: Readonly<Record<string, string | undefined>>) {
  const dir = configDir(env);
  const file = join(dir, 'credentials.json');

  async function load(): Promise<Credentials> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { sessions: {} };
      throw error;
    }
    try {
      return credentialsSchema.parse(JSON.parse(text));
    } catch {
      throw new CliError(
        'BAD_CREDENTIALS_FILE',
        `${file} is not a credentials file of tolk; delete it and run \`tolk login\` again`,
        ExitCode.auth,
      );
    }
  }

  async function save(credentials: Credentials): Promise<void> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  }

  return {
    file,
    async defaultApiUrl(): Promise<string | undefined> {
      return (await load()).defaultApiUrl;
    },
    async get(apiUrl: string): Promise<Session | undefined> {
      return (await load()).sessions[apiUrl];
    },
    async put(apiUrl: string, session: Session): Promise<void> {
      const credentials = await load();
      credentials.sessions[apiUrl] = session;
      credentials.defaultApiUrl = apiUrl;
      await save(credentials);
    },
    async remove(apiUrl: string): Promise<void> {
      const credentials = await load();
      delete credentials.sessions[apiUrl];
      if (Object.keys(credentials.sessions).length === 0) {
        await rm(file, { force: true });
        return;
      }
      if (credentials.defaultApiUrl === apiUrl) delete credentials.defaultApiUrl;
      await save(credentials);
    },
  };
}

export type CredentialStore = ReturnType<typeof createCredentialStore>;
