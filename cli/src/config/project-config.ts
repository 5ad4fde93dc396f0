import { access, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { sourceLocaleProblem } from '@tolk/contracts';
import { CliError, ExitCode } from '../errors.js';
import { readSourceLocale, readTargetLocale } from '../locales.js';

export const PROJECT_CONFIG_FILE = 'tolk.json';
export const LOCALE_PLACEHOLDER = '{locale}';

// Both in canonical form; `pt_BR` is read as `pt-BR`.
const sourceLocale = z.string().transform((code, ctx) => {
  const canonical = readSourceLocale(code);
  if (canonical !== undefined) return canonical;
  ctx.addIssue({ code: 'custom', message: sourceLocaleProblem(code) });
  return z.NEVER;
});

const targetLocale = z.string().transform((code, ctx) => {
  const parsed = readTargetLocale(code);
  if (parsed.ok) return parsed.locale;
  ctx.addIssue({ code: 'custom', message: parsed.problem });
  return z.NEVER;
});

const projectConfigSchema = z.object({
  apiUrl: z.url({ error: 'must be the URL of a Tolk server' }).optional(),
  projectId: z.string().min(1, { error: 'must not be empty' }),
  sourceLocale,
  targetLocales: z.array(targetLocale),
  files: z.string().includes(LOCALE_PLACEHOLDER, { error: `must contain ${LOCALE_PLACEHOLDER}` }),
});

export type ProjectConfig = z.infer<typeof projectConfigSchema>;
/** The config and the directory its relative paths start from. */
export type LoadedProjectConfig = { config: ProjectConfig; file: string; dir: string };

/** `tolk.json` in `cwd` or the nearest directory above it. */
export async function findProjectConfig(cwd: string): Promise<string | undefined> {
  let dir = resolve(cwd);
  for (;;) {
    const file = join(dir, PROJECT_CONFIG_FILE);
    try {
      await access(file);
      return file;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return undefined;
      dir = parent;
    }
  }
}

export async function loadProjectConfig(cwd: string): Promise<LoadedProjectConfig> {
  const file = await findProjectConfig(cwd);
  if (!file) {
    throw new CliError(
      'NO_PROJECT',
      `No ${PROJECT_CONFIG_FILE} here or in any parent directory: run \`tolk init\` first`,
      ExitCode.usage,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new CliError(
      'INVALID_CONFIG',
      `${file}: not valid JSON (${(error as Error).message})`,
      ExitCode.usage,
    );
  }
  const result = projectConfigSchema.safeParse(parsed);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.join('.') || '(file)'} ${issue.message}`,
    );
    throw new CliError('INVALID_CONFIG', `${file}: ${problems.join('; ')}`, ExitCode.usage);
  }
  return { config: result.data, file, dir: dirname(file) };
}

export async function writeProjectConfig(file: string, config: ProjectConfig): Promise<void> {
  await writeFile(file, JSON.stringify(config, null, 2) + '\n');
}

/** The local file of one locale: the pattern with `{locale}` filled in, relative to tolk.json. */
export function localeFilePath(loaded: LoadedProjectConfig, localeCode: string): string {
  return resolve(loaded.dir, loaded.config.files.replaceAll(LOCALE_PLACEHOLDER, localeCode));
}
