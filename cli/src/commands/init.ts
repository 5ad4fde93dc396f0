import { access } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { tolkApi, type Project, type TolkApi } from '../api/tolk-api.js';
import {
  LOCALE_PLACEHOLDER,
  PROJECT_CONFIG_FILE,
  loadProjectConfig,
  writeProjectConfig,
  type ProjectConfig,
} from '../config/project-config.js';
import { authenticatedClient, createContext } from '../context.js';
import { ApiError, ExitCode, usageError } from '../errors.js';
import { describeProposal } from '../init/describe-proposal.js';
import { detectFileSets, type FileSet, type LayoutProposal } from '../init/detect-layout.js';
import { proposeLayout } from '../init/propose-layout.js';
import type { Io } from '../io.js';
import { parseLocaleList, parseSourceLocale } from '../locales.js';
import { DRIVER_COMMAND, GITATTRIBUTES, gitWorkTree, installDriver } from '../merge-driver/install.js';
import { createPrompter } from '../prompt.js';

type Prompter = ReturnType<typeof createPrompter>;

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
  /** Registers `tolk merge-driver` in the git repository too (merge-driver/install.ts). */
  git?: boolean;
};

/**
 * tolk.json as init writes it: `files` is one pattern (the old form) or the file sets found
 * (notes/layer-schema.md).
 */

/**
 * Creates a project (or links an existing one), adds the target locales the server lacks and
 * writes tolk.json. Asks for what the flags leave out only when stdin is a terminal and --yes
 * is not given; otherwise uses the defaults and fails on what has none (the target locales).
 * Without --files it looks for the app's locale files first (detectLayout) and proposes them:
 * confirmed in a terminal, taken with --yes, and elsewhere shown with exit 2, before anything is
 * created. The source and target locales it saw are the defaults.
 */
export async function init(io: Io, options: InitOptions) {
  if (options.name !== undefined && options.project !== undefined) {
    throw usageError('--name creates a new project and --project links an existing one: give one of them');
  }
  const context = await createContext(io, options);
  const { out } = context;
  const file = join(io.cwd, PROJECT_CONFIG_FILE);
  // Before anything is created: `--git` outside a repository creates nothing.
  if (options.git) gitWorkTree(io.cwd);
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
    // Before anything is created, so that a proposal refused leaves nothing behind.
    const { proposal, detected } =
      options.files === undefined ? await chooseFileSets(io.cwd, options, interactive, prompter, out) : {};

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
      const source = await sourceLocaleFor(detected, options, interactive, prompter);
      // Checked before the project exists, so a typo leaves nothing behind.
      if (options.targets !== undefined) parseLocaleList(options.targets, '--targets');
      project = await api.createProject({ name, sourceLocale: source });
      created = true;
    }

    if (detected?.sourceLocale !== undefined && detected.sourceLocale !== project.sourceLocale) {
      out.note(
        `The files found look written in ${detected.sourceLocale}; the project's source locale is ${project.sourceLocale}.`,
      );
    }
    const onServer = (await api.listLocales(project.projectId)).locales.map((locale) => locale.locale);
    // The locales the server has and those with files on disk (the source's aside).
    const seen = detected
      ? [...detected.targetLocales, ...detected.fileSets.flatMap((set) => set.locales)].sort()
      : [];
    const known = [...new Set([...onServer, ...seen].filter((l) => l !== project.sourceLocale))];
    let targetsText = options.targets;
    if (targetsText === undefined && interactive) {
      targetsText = await prompter.ask('Target locales, comma-separated (e.g. de,fr)', known.join(','));
    }
    if (targetsText === undefined && known.length > 0) targetsText = known.join(',');
    if (targetsText === undefined || targetsText.trim() === '') {
      throw usageError('Name the target locales with --targets, e.g. --targets de,fr');
    }
    const targets = parseLocaleList(targetsText, '--targets');
    if (targets.includes(project.sourceLocale)) {
      throw usageError(`--targets: ${project.sourceLocale} is the source locale, not a target`);
    }
    const files: string | FileSet[] = detected
      ? filesOf(detected)
      : (options.files ?? (interactive ? await prompter.ask('Locale files', DEFAULT_FILES) : DEFAULT_FILES));
    if (typeof files === 'string' && !files.includes(LOCALE_PLACEHOLDER)) {
      throw usageError(`--files must contain ${LOCALE_PLACEHOLDER}, e.g. ${DEFAULT_FILES}`);
    }

    const added = await addTargetLocales(api, project.projectId, targets, onServer);

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
      typeof files === 'string' && !detected
        ? `Wrote ${PROJECT_CONFIG_FILE}. Next: put your source strings in ${files.replaceAll(LOCALE_PLACEHOLDER, project.sourceLocale)} and run \`tolk push\`.`
        : `Wrote ${PROJECT_CONFIG_FILE} with the locale files found. Next: run \`tolk push\`, then \`tolk translate\`.`,
    );
    const mergeDriver = options.git
      ? await installDriver(await loadProjectConfig(io.cwd), DRIVER_COMMAND)
      : undefined;
    if (mergeDriver) {
      out.line(`Git merges the locale files key by key now (tolk merge-driver): commit ${GITATTRIBUTES}.`);
    }
    out.document({
      ...config,
      created,
      addedLocales: added,
      ...(proposal ? { proposal } : {}),
      ...(mergeDriver ? { mergeDriver: { patterns: mergeDriver.patterns } } : {}),
    });
    return ExitCode.ok;
  } finally {
    prompter.close();
  }
}

/** Adds the target locales the server does not have yet; those it added. */
async function addTargetLocales(
  api: TolkApi,
  projectId: string,
  targets: readonly string[],
  onServer: readonly string[],
): Promise<string[]> {
  const added: string[] = [];
  for (const locale of targets) {
    if (onServer.includes(locale)) continue;
    try {
      await api.addLocale(projectId, locale);
      added.push(locale);
    } catch (error) {
      // Someone added it in the meantime: that is what was wanted.
      if (!(error instanceof ApiError && error.code === 'CONFLICT')) throw error;
    }
  }
  return added;
}

/**
 * The file sets found, and those the user takes: all of them with --yes; in a terminal, all, none
 * or those whose numbers are answered; elsewhere none, with exit 2 showing them. Undefined when
 * none is found.
 */
async function chooseFileSets(
  cwd: string,
  options: InitOptions,
  interactive: boolean,
  prompter: Prompter,
  out: { line(text: string): void },
): Promise<{ proposal?: LayoutProposal; detected?: LayoutProposal }> {
  const { found, notes } = await detectFileSets(cwd);
  const proposal = proposeLayout(found, notes);
  if (proposal.fileSets.length === 0) return { proposal };
  const description = describeProposal(proposal);
  if (options.yes) return { proposal, detected: proposal };
  if (!interactive) {
    throw usageError(`${description}\nPass --yes to take these file sets, or name the files with --files`);
  }
  const several = proposal.fileSets.length > 1;
  for (;;) {
    const answer = await prompter.ask(
      `${description}\nUse these file sets? [Y/n${several ? ', or the numbers of those to keep, e.g. 1,3' : ''}]`,
    );
    if (/^n(o)?$/i.test(answer)) return { proposal };
    if (!several || !/^\d/.test(answer)) return { proposal, detected: proposal };
    const numbers = answer
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (numbers.every((n) => Number.isInteger(n) && n >= 1 && n <= proposal.fileSets.length)) {
      // The sets are proposed again, alone: their namespaces, source and targets are theirs.
      const kept = proposal.fileSets.flatMap((set, index) =>
        numbers.includes(index + 1) ? found.filter((one) => one.fileSet.path === set.fileSet.path) : [],
      );
      return { proposal, detected: proposeLayout(kept, []) };
    }
    out.line(`Answer y, n, or numbers from 1 to ${proposal.fileSets.length}.`);
  }
}

/**
 * The source locale of a new project: --source, else the one the files tell (asked in a terminal,
 * with it as the default); when they do not tell and no template says English, --yes needs
 * --source rather than a guess.
 */
async function sourceLocaleFor(
  detected: LayoutProposal | undefined,
  options: InitOptions,
  interactive: boolean,
  prompter: Prompter,
): Promise<string> {
  if (options.source !== undefined) return parseSourceLocale(options.source, '--source');
  const told = detected?.sourceLocale;
  const offered = told ?? detected?.sourceLocaleGuess ?? 'en';
  if (interactive) return parseSourceLocale(await prompter.ask('Source locale', offered), '--source');
  if (told === undefined && detected?.sourceLocaleGuess !== undefined) {
    const seen = [detected.sourceLocaleGuess, ...detected.targetLocales].sort().join(', ');
    throw usageError(
      `The files found do not say which locale is the source (${seen} seen, ${detected.sourceLocaleGuess} has the most messages): name it with --source`,
    );
  }
  return parseSourceLocale(
    offered,
    told === undefined ? '--source' : 'the source locale of the files found (name another with --source)',
  );
}

/**
 * The file sets for tolk.json: the old one-pattern form when the app has one plain JSON file per
 * locale (what tolk.json always held, so such projects look as before), the array otherwise.
 */
function filesOf(proposal: LayoutProposal): string | FileSet[] {
  const sets = proposal.fileSets.map((set) => set.fileSet);
  const [only] = sets;
  const plain =
    sets.length === 1 &&
    only !== undefined &&
    only.format === 'json' &&
    !only.path.includes('{namespace}') &&
    !only.path.includes('*') &&
    Object.keys(only).length === 2;
  return plain ? only.path : sets;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
