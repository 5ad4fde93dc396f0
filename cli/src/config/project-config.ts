import { access, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { sourceLocaleProblem } from '@tolk/contracts';
import { CliError, ExitCode } from '../errors.js';
import { FORMAT_NAMES, formatNamed, type FormatOptions, type LocaleFormat } from '../formats/index.js';
import { readSourceLocale, readTargetLocale } from '../locales.js';

export const PROJECT_CONFIG_FILE = 'tolk.json';
export const LOCALE_PLACEHOLDER = '{locale}';
export const NAMESPACE_PLACEHOLDER = '{namespace}';
/** The longest namespace name: it is a key segment of the server's document. */
export const MAX_NAMESPACE_LENGTH = 100;

/** Why `name` cannot be a namespace (a top-level key of the server's document), or undefined. */
export function namespaceProblem(name: string): string | undefined {
  if (name === '') return 'must not be empty';
  if (name.includes('.')) return `${JSON.stringify(name)} cannot be a namespace: it contains "."`;
  if (name.startsWith('@')) return `${JSON.stringify(name)} cannot be a namespace: it starts with "@"`;
  if (name.length > MAX_NAMESPACE_LENGTH)
    return `${JSON.stringify(name.slice(0, 20))}... cannot be a namespace: longer than ${MAX_NAMESPACE_LENGTH} characters`;
  return undefined;
}

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

/** canonical locale → how the app spells it in paths (`{ "pt-BR": "pt_BR" }`). */
const localeSpellings = z.record(
  targetLocale,
  z
    .string()
    .min(1, { error: 'must not be empty' })
    .refine((spelled) => !/[/\\]/.test(spelled) && spelled !== '.' && spelled !== '..', {
      error: 'must be a name, not a path ("/", "\\", "." and ".." are not spellings)',
    }),
);

const relativePath = z
  .string()
  .min(1, { error: 'must not be empty' })
  .refine((path) => !path.startsWith('/') && !path.split('/').includes('..'), {
    error: 'must be a path inside the project (relative to tolk.json, no "..")',
  });

/** A file set's switch: `true` or `false`, nothing that merely looks like one (`"yes"`, `1`). */
const onOff = z.boolean({ error: (issue) => `must be true or false, not ${JSON.stringify(issue.input)}` });

const fileSetSchema = z
  .strictObject({
    path: relativePath,
    format: z.string().refine((name) => formatNamed(name) !== undefined, {
      error: (issue) => `${JSON.stringify(issue.input)} is not a format; one of ${FORMAT_NAMES.join(', ')}`,
    }),
    source: relativePath.optional(),
    namespace: z
      .string()
      .superRefine((name, ctx) => {
        const problem = namespaceProblem(name);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    locales: localeSpellings.optional(),
    rails: onOff.optional(),
    encoding: z
      .enum(['utf-8', 'iso-8859-1'], {
        error: (issue) => `must be "utf-8" or "iso-8859-1", not ${JSON.stringify(issue.input)}`,
      })
      .optional(),
    revisionHeader: onOff.optional(),
  })
  .superRefine((set, ctx) => {
    // A format whose one file holds every locale (xcstrings) names no locale in its path.
    const oneFile = formatNamed(set.format)?.oneFileForAllLocales === true;
    if (!oneFile && !set.path.includes(LOCALE_PLACEHOLDER))
      ctx.addIssue({ code: 'custom', path: ['path'], message: `must contain ${LOCALE_PLACEHOLDER}` });
    if (oneFile && set.path.includes(LOCALE_PLACEHOLDER))
      ctx.addIssue({
        code: 'custom',
        path: ['path'],
        message: `must not contain ${LOCALE_PLACEHOLDER}: one ${set.format} file holds every locale`,
      });
    if (oneFile && set.source !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['source'],
        message: `is for a file set of one file per locale; one ${set.format} file holds every locale, its source too`,
      });
    const segments = set.path.split('/');
    const placeholders = segments.filter((segment) => segment.includes(NAMESPACE_PLACEHOLDER));
    if (placeholders.length > 1 || set.path.split(NAMESPACE_PLACEHOLDER).length > 2)
      ctx.addIssue({
        code: 'custom',
        path: ['path'],
        message: `must contain ${NAMESPACE_PLACEHOLDER} at most once`,
      });
    const glob = hasGlob(set.path);
    if (glob && set.path.includes(NAMESPACE_PLACEHOLDER))
      ctx.addIssue({
        code: 'custom',
        path: ['path'],
        message: `takes either ${NAMESPACE_PLACEHOLDER} or a glob, not both`,
      });
    if (glob && globStart(set.path) < set.path.indexOf(LOCALE_PLACEHOLDER))
      ctx.addIssue({
        code: 'custom',
        path: ['path'],
        message: `must have ${LOCALE_PLACEHOLDER} before the glob (locales/${LOCALE_PLACEHOLDER}/**/*.json)`,
      });
    if (set.namespace !== undefined && (glob || set.path.includes(NAMESPACE_PLACEHOLDER)))
      ctx.addIssue({
        code: 'custom',
        path: ['namespace'],
        message: `is for a file set of one file per locale; this path names its namespaces itself`,
      });
    if (set.source !== undefined && (glob || set.path.includes(NAMESPACE_PLACEHOLDER)))
      ctx.addIssue({
        code: 'custom',
        path: ['source'],
        message: 'is for a file set of one file per locale',
      });
  });

const projectConfigSchema = z
  .object({
    apiUrl: z.url({ error: 'must be the URL of a Tolk server' }).optional(),
    projectId: z.string().min(1, { error: 'must not be empty' }),
    sourceLocale,
    targetLocales: z.array(targetLocale),
    files: z.union(
      [
        z.string().includes(LOCALE_PLACEHOLDER, { error: `must contain ${LOCALE_PLACEHOLDER}` }),
        z.array(fileSetSchema).min(1, { error: 'must name at least one file set' }),
      ],
      { error: `must be a path pattern ("locales/${LOCALE_PLACEHOLDER}.json") or a list of file sets` },
    ),
    locales: localeSpellings.optional(),
  })
  .superRefine((config, ctx) => {
    if (typeof config.files === 'string') return;
    const named = new Map<string, number>();
    config.files.forEach((set, index) => {
      if (set.namespace === undefined) return;
      const first = named.get(set.namespace);
      if (first !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['files', index, 'namespace'],
          message: `${JSON.stringify(set.namespace)} is also the namespace of files.${first}`,
        });
      else named.set(set.namespace, index);
    });
    const paths = new Map<string, number>();
    config.files.forEach((set, index) => {
      const first = paths.get(set.path);
      if (first !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['files', index, 'path'],
          message: `is also the path of files.${first}: two file sets cannot claim the same files`,
        });
      else paths.set(set.path, index);
    });
    if (config.files.length > 1) {
      config.files.forEach((set, index) => {
        if (set.namespace === undefined && !hasGlob(set.path) && !set.path.includes(NAMESPACE_PLACEHOLDER))
          ctx.addIssue({
            code: 'custom',
            path: ['files', index],
            message: `needs a "namespace" (or ${NAMESPACE_PLACEHOLDER} in its path): with several file sets, each file is a namespace of the document`,
          });
      });
    }
  });

export type ProjectConfig = z.infer<typeof projectConfigSchema>;
export type FileSetConfig = Exclude<ProjectConfig['files'], string>[number];
/** The config and the directory its relative paths start from. */
export type LoadedProjectConfig = { config: ProjectConfig; file: string; dir: string };

/** One file set of tolk.json, ready to use. */
export type FileSet = {
  /** Its place in tolk.json (`files.1`), for messages. */
  label: string;
  /** The path pattern, relative to tolk.json. */
  path: string;
  format: LocaleFormat;
  options: FormatOptions;
  /** The source file's own path, when it does not follow the pattern. */
  source?: string;
  /** The fixed namespace of a file set of one file per locale. */
  namespace?: string;
  /** The file's document is the whole server document (the old, single-file tolk.json). */
  root: boolean;
  /** The old `files` string: its files are read as they always were (JSON, the same errors). */
  legacy: boolean;
  /** How the app spells a locale in this set's paths. */
  spell(locale: string): string;
};

/** Whether a path pattern has glob characters. */
export function hasGlob(path: string): boolean {
  return globStart(path) < path.length;
}

/** Where the glob part of a pattern starts (its length when it has none). */
export function globStart(path: string): number {
  const index = path.search(/[*?[]|\{(?!locale\}|namespace\})/);
  return index === -1 ? path.length : index;
}

/** The file sets of a project: the old `files` string is one set of format `json` at the root. */
export function fileSets(loaded: LoadedProjectConfig): FileSet[] {
  const { config } = loaded;
  const spelling = (format: LocaleFormat, own?: Record<string, string>) => (locale: string) =>
    own?.[locale] ?? config.locales?.[locale] ?? format.spellLocale(locale);
  if (typeof config.files === 'string') {
    const format = formatNamed('json')!;
    // The old form spelled the locale as tolk.json has it, which is json's spelling.
    return [
      {
        label: 'files',
        path: config.files,
        format,
        options: {},
        root: true,
        legacy: true,
        spell: spelling(format),
      },
    ];
  }
  const sets = config.files;
  return sets.map((set, index) => {
    const format = formatNamed(set.format)!;
    const options: FormatOptions = {};
    if (set.rails !== undefined) options.rails = set.rails;
    if (set.encoding !== undefined) options.encoding = set.encoding;
    if (set.revisionHeader !== undefined) options.revisionHeader = set.revisionHeader;
    return {
      label: `files.${index}`,
      path: set.path,
      format,
      options,
      ...(set.source === undefined ? {} : { source: set.source }),
      ...(set.namespace === undefined ? {} : { namespace: set.namespace }),
      root:
        sets.length === 1 &&
        set.namespace === undefined &&
        !set.path.includes(NAMESPACE_PLACEHOLDER) &&
        !hasGlob(set.path),
      legacy: false,
      spell: spelling(format, set.locales),
    };
  });
}

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
    const problems = placedIssues(result.error.issues).map(
      ({ path, message }) => `${path.join('.') || '(file)'} ${message}`,
    );
    throw new CliError('INVALID_CONFIG', `${file}: ${problems.join('; ')}`, ExitCode.usage);
  }
  return { config: result.data, file, dir: dirname(file) };
}

/**
 * The issues of a parse, each at its path. An invalid union (`files`: a pattern or a list of
 * file sets) is the issues of the option the value's type chose, so that a wrong field of a file
 * set is named (`files.0.revisionHeader must be true or false`), not the whole `files`.
 */
function placedIssues(
  issues: readonly z.core.$ZodIssue[],
  at: PropertyKey[] = [],
): { path: PropertyKey[]; message: string }[] {
  return issues.flatMap((issue) => {
    const path = [...at, ...issue.path];
    if (issue.code !== 'invalid_union') return [{ path, message: issue.message }];
    const chosen = issue.errors.filter(
      (errors) => !errors.some((error) => error.code === 'invalid_type' && error.path.length === 0),
    );
    return chosen.length === 1 ? placedIssues(chosen[0]!, path) : [{ path, message: issue.message }];
  });
}

export async function writeProjectConfig(file: string, config: ProjectConfig): Promise<void> {
  await writeFile(file, JSON.stringify(config, null, 2) + '\n');
}

/**
 * The local file of one locale in the old, single-file form: the pattern with `{locale}` filled
 * in, relative to tolk.json. With file sets, use files/file-sets.ts.
 */
export function localeFilePath(loaded: LoadedProjectConfig, localeCode: string): string {
  const [set] = fileSets(loaded);
  return resolve(loaded.dir, set!.path.replaceAll(LOCALE_PLACEHOLDER, set!.spell(localeCode)));
}
