import { access } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { tolkApi, type Project } from '../api/tolk-api.js';
import {
  LOCALE_PLACEHOLDER,
  PROJECT_CONFIG_FILE,
  writeProjectConfig,
  type ProjectConfig,
} from '../config/project-config.js';
import { authenticatedClient, createContext } from '../context.js';
import { ApiError, ExitCode, usageError } from '../errors.js';
import type { Io } from '../io.js';
import { parseLocaleList, parseSourceLocale } from '../locales.js';
import { createPrompter } from '../prompt.js';

export const DEFAULT_FILES = 'locales/{locale}.json';

export type InitOptions = {
  api?: string;
  name?: string;
  project?: string;
  source?: string;
  targets?: string;
  files?: string;
  yes: boolean;
  json: boolean;
};

/**
 * Creates a project (or links an existing one), adds the target locales the server lacks and
 * writes tolk.json. Asks for what the flags leave out only when stdin is a terminal and --yes
 * is not given; otherwise uses the defaults and fails on what has none (the target locales).
 */
export async function init(io: Io, options: InitOptions) {
  if (options.name !== undefined && options.project !== undefined) {
    throw usageError('--name creates a new project and --project links an existing one: give one of them');
  }
  const context = await createContext(io, options);
  const { out } = context;
  const file = join(io.cwd, PROJECT_CONFIG_FILE);
  const interactive = io.stdinIsTTY && !options.yes;
  const prompter = createPrompter(io);
  try {
    if ((await exists(file)) && !options.yes) {
      const overwrite = interactive
        ? await prompter.ask(`${PROJECT_CONFIG_FILE} exists. Overwrite it? [y/N]`)
        : 'n';
      if (!/^y(es)?$/i.test(overwrite)) {
        throw usageError(`${PROJECT_CONFIG_FILE} already exists here; pass --yes to overwrite it`);
      }
    }
    const { client } = await authenticatedClient(context);
    const api = tolkApi(client);

    let project: Project;
    let created = false;
    if (options.project !== undefined) {
      project = await api.getProject(options.project);
      if (
        options.source !== undefined &&
        parseSourceLocale(options.source, '--source') !== project.sourceLocale
      ) {
        throw usageError(
          `--source ${options.source} differs from the project's source locale ${project.sourceLocale}`,
        );
      }
    } else {
      const fallbackName = basename(io.cwd) || 'My project';
      const name =
        options.name ?? (interactive ? await prompter.ask('Project name', fallbackName) : fallbackName);
      const source = parseSourceLocale(
        options.source ?? (interactive ? await prompter.ask('Source locale', 'en') : 'en'),
        '--source',
      );
      // Checked before the project exists, so a typo leaves nothing behind.
      if (options.targets !== undefined) parseLocaleList(options.targets, '--targets');
      project = await api.createProject({ name, sourceLocale: source });
      created = true;
    }

    const onServer = (await api.listLocales(project.projectId)).locales.map((locale) => locale.locale);
    let targetsText = options.targets;
    if (targetsText === undefined && interactive) {
      targetsText = await prompter.ask('Target locales, comma-separated (e.g. de,fr)', onServer.join(','));
    }
    if (targetsText === undefined && !created && onServer.length > 0) targetsText = onServer.join(',');
    if (targetsText === undefined || targetsText.trim() === '') {
      throw usageError('Name the target locales with --targets, e.g. --targets de,fr');
    }
    const targets = parseLocaleList(targetsText, '--targets');
    if (targets.includes(project.sourceLocale)) {
      throw usageError(`--targets: ${project.sourceLocale} is the source locale, not a target`);
    }
    const files =
      options.files ?? (interactive ? await prompter.ask('Locale files', DEFAULT_FILES) : DEFAULT_FILES);
    if (!files.includes(LOCALE_PLACEHOLDER)) {
      throw usageError(`--files must contain ${LOCALE_PLACEHOLDER}, e.g. ${DEFAULT_FILES}`);
    }

    const added: string[] = [];
    for (const locale of targets) {
      if (onServer.includes(locale)) continue;
      try {
        await api.addLocale(project.projectId, locale);
        added.push(locale);
      } catch (error) {
        // Someone added it in the meantime: that is what was wanted.
        if (!(error instanceof ApiError && error.code === 'CONFLICT')) throw error;
      }
    }

    const config: ProjectConfig = {
      apiUrl: context.apiUrl,
      projectId: project.projectId,
      sourceLocale: project.sourceLocale,
      targetLocales: targets,
      files,
    };
    await writeProjectConfig(file, config);
    out.line(
      created
        ? `Created project "${project.name}" (${project.projectId}), source locale ${project.sourceLocale}.`
        : `Linked project "${project.name}" (${project.projectId}), source locale ${project.sourceLocale}.`,
    );
    if (added.length > 0) out.line(`Added target locales: ${added.join(', ')}.`);
    out.line(
      `Wrote ${PROJECT_CONFIG_FILE}. Next: put your source strings in ${files.replaceAll(LOCALE_PLACEHOLDER, project.sourceLocale)} and run \`tolk push\`.`,
    );
    out.document({ ...config, created, addedLocales: added });
    return ExitCode.ok;
  } finally {
    prompter.close();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
