/**
 * What `tolk translate` starts from: the locales chosen, the project's settings and glossary, the
 * server's source as the local files lay it out, their problems, and the record of the last sync.
 */
import type { LocaleResponse } from '@tolk/contracts';
import { caughtUpLocales } from '../api/caught-up-locales.js';
import { projectAndSource } from '../api/project-and-source.js';
import type { TolkApi } from '../api/tolk-api.js';
import type { LoadedProjectConfig } from '../config/project-config.js';
import { usageError } from '../errors.js';
import { fileProblems } from '../files/file-problems.js';
import { layoutParts } from '../files/file-sets.js';
import { parseLocaleDocument } from '../files/locale-files.js';
import { loadSyncState } from '../files/sync-state.js';
import type { Io } from '../io.js';
import { parseLocaleList } from '../locales.js';
import type { Output } from '../output.js';
import { compileGlossary } from './glossary.js';
import { projectKeyRules } from './key-rules.js';
import { valuesOf } from './merge.js';

export type TranslateContext = Awaited<ReturnType<typeof translateContext>>;

/**
 * The chosen locales (`--locale`, else the project's targets), each a target locale of the
 * project, and all a run reads before it plans: a usage error (exit 2) for a locale that is none.
 */
export async function translateContext(options: {
  io: Io;
  out: Output;
  api: TolkApi;
  project: LoadedProjectConfig;
  locale: string[];
  memory: boolean | undefined;
}) {
  const { io, out, api, project } = options;
  const { projectId, sourceLocale, targetLocales } = project.config;
  const chosen = options.locale.length > 0 ? parseLocaleList(options.locale, '--locale') : targetLocales;
  if (chosen.includes(sourceLocale)) throw usageError(`--locale: ${sourceLocale} is the source locale`);
  if (chosen.length === 0)
    throw usageError('No target locales in tolk.json: add them with `tolk init --targets ...`');

  const {
    project: projectInfo,
    glossary: glossaryEntries,
    source: sourceFile,
  } = await projectAndSource(api, projectId, 'Nothing to translate yet');
  const { locales } = await caughtUpLocales(api, projectId, sourceFile.version, io.signal);
  const serverSourceDocument = JSON.parse(sourceFile.content) as Record<string, unknown>;
  const source = parseLocaleDocument(serverSourceDocument, project.file, io.cwd);
  const sourceFiles = await layoutParts({
    project,
    cwd: io.cwd,
    note: out.note,
    serverSourceDocument,
    source,
    version: sourceFile.version,
  });
  const problems = fileProblems({
    source: "its namespace's keys were not translated and its target files not written",
    target: 'its keys were not translated and it was not written; fix it and translate again',
  });
  problems.addSource(sourceFiles);
  const syncState = await loadSyncState(project.dir);

  const byCode = new Map<string, LocaleResponse>(locales.map((locale) => [locale.locale, locale]));
  const unknown = chosen.filter((code) => !byCode.has(code));
  if (unknown.length > 0) {
    throw usageError(
      `${unknown.join(', ')}: not a target locale of the project; add it with \`tolk init --targets ...\``,
    );
  }
  const sourceValues = valuesOf(source);
  return {
    io,
    out,
    api,
    projectId,
    sourceLocale,
    /** The chosen locales, each with its state on the server. */
    locales: chosen.map((code) => byCode.get(code)!),
    settings: projectInfo.settings,
    /** The server's source, its version, and the local files it is laid out in. */
    source,
    sourceValues,
    valueOf: (key: string) => sourceValues.get(key) ?? '',
    version: sourceFile.version,
    parts: sourceFiles.parts,
    sourceFiles,
    problems,
    syncState,
    glossary: compileGlossary(glossaryEntries.entries),
    i18nextPlurals: projectInfo.settings.i18nextPlurals ?? true,
    rules: projectKeyRules(projectInfo),
    /** Translation memory: identical texts filled without the model, near matches as examples. */
    useMemory: options.memory ?? true,
  };
}
