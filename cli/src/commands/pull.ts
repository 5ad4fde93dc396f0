import { tolkApi } from '../api/tolk-api.js';
import { projectContext } from '../context.js';
import { ExitCode, usageError } from '../errors.js';
import { fileProblems } from '../files/file-problems.js';
import {
  keysOfParts,
  layoutParts,
  localeKeys,
  readLocalValues,
  writeTargetFile,
} from '../files/file-sets.js';
import { parseLocaleDocument, shown } from '../files/locale-files.js';
import {
  isUnsyncedLocal,
  keepRecords,
  loadSyncState,
  saveSyncState,
  syncedHashes,
} from '../files/sync-state.js';
import type { Io } from '../io.js';
import { parseLocaleList } from '../locales.js';
import { projectKeyRules, ruledValueOf } from '../translate/key-rules.js';
import { valuesOf } from '../translate/merge.js';

/** Up to this many kept keys are named one by one. */
const LISTED_KEYS = 20;

/**
 * Writes the server's translations of each target locale (or the --locale ones) into the local
 * files, each namespace into its own file in its format and in its source file's layout. A local
 * value that differs from the server's and was never uploaded is kept and named, and the exit is
 * `localChanges`; with --force the server's value is written over it. A file that cannot be read
 * (DESIGN §15) is left as it is and named (even with --force: what it holds is unknown), every
 * other file is written, and the exit is `partial`.
 */
export async function pull(io: Io, options: { locale: string[]; json: boolean; force?: boolean }) {
  const { out, project, client } = await projectContext(io, options);
  const { projectId, targetLocales, sourceLocale } = project.config;
  const locales = options.locale.length > 0 ? parseLocaleList(options.locale, '--locale') : targetLocales;
  if (locales.includes(sourceLocale))
    throw usageError(`--locale: ${sourceLocale} is the source locale; pull writes targets`);
  const api = tolkApi(client);
  const [projectInfo, sourceFile] = await Promise.all([api.getProject(projectId), api.getSource(projectId)]);
  const serverSourceDocument = JSON.parse(sourceFile.content) as Record<string, unknown>;
  const sourceFiles = await layoutParts({
    project,
    cwd: io.cwd,
    note: out.note,
    serverSourceDocument,
    source: parseLocaleDocument(serverSourceDocument, project.file, io.cwd),
    version: sourceFile.version,
  });
  const { parts } = sourceFiles;
  const problems = fileProblems({
    source: "its namespace's target files were not written",
    target: 'it was left as it is; fix it (or delete it) and pull again',
  });
  problems.addSource(sourceFiles);
  const i18nextPlurals = projectInfo.settings.i18nextPlurals ?? true;
  const rules = projectKeyRules(projectInfo);
  const state = await loadSyncState(project.dir);
  const written = [];
  let keptAny = false;
  for (const locale of locales) {
    const translations = await api.getTranslations(projectId, locale);
    const document = JSON.parse(translations.content) as unknown;
    const server = valuesOf(parseLocaleDocument(document, project.file, io.cwd));
    const local = await readLocalValues(parts, locale, io.cwd);
    problems.addLocal(local);
    const synced = state.locales[locale] ?? new Map<string, string>();
    const kept = new Set<string>();
    // The keys of a file not read: what it holds is unknown, so their sync record stays as it was.
    const unread = keysOfParts(server.keys(), [
      ...(local?.failed.keys() ?? []),
      ...sourceFiles.failed.map(({ file }) => ({ file })),
    ]);
    // Excluded keys are left out; keys never translated carry the server's source text (DESIGN §13).
    const valueOf = ruledValueOf(rules, server, (key: string) => {
      const mine = local?.values.get(key);
      const theirs = server.get(key);
      if (!options.force && isUnsyncedLocal(mine, theirs, synced.get(key))) {
        kept.add(key);
        return mine;
      }
      return theirs;
    });
    const paths: string[] = [];
    for (const part of parts) {
      if (local?.failed.has(part)) continue;
      const path = await writeTargetFile({
        part,
        sourceLocale,
        locale,
        i18nextPlurals,
        valueOf,
        existing: local?.existing.get(part),
        // What was synced before this pull: a key the source lacks goes only when Tolk synced it.
        synced,
        cwd: io.cwd,
      });
      paths.push(path);
    }
    // Of the locale's keys alone: translations downloaded before the server took the latest source
    // in (SourceChanged is on its way) may still hold keys it deleted, which no file holds now.
    const hashes = syncedHashes(
      server,
      (await readLocalValues(parts, locale, io.cwd))?.values,
      localeKeys(parts, locale, i18nextPlurals),
    );
    keepRecords(hashes, synced, [...kept, ...unread]);
    state.locales[locale] = hashes;
    state.versions[locale] = translations.translatedFrom;

    const keyCount = server.size;
    const file = paths.length === 1 ? shown(paths[0]!, io.cwd) : `${paths.length} ${locale} files`;
    // A locale none of whose files could be read: its errors say so.
    if (paths.length > 0) {
      out.line(
        `${locale}: wrote ${file} (${keyCount} keys, synced with source version ${translations.syncedVersion})`,
      );
    }
    const keptKeys = [...kept];
    if (keptKeys.length > 0) {
      keptAny = true;
      const listed = keptKeys.slice(0, LISTED_KEYS).join(', ');
      const more = keptKeys.length > LISTED_KEYS ? `, and ${keptKeys.length - LISTED_KEYS} more` : '';
      out.note(
        `${locale}: kept your local value of ${keptKeys.length} key${keptKeys.length === 1 ? '' : 's'} ` +
          `that differ${keptKeys.length === 1 ? 's' : ''} from the server's and ${keptKeys.length === 1 ? 'was' : 'were'} never uploaded: ` +
          `${listed}${more} (\`tolk pull --force\` writes the server's values over them)`,
      );
    }
    written.push({
      locale,
      file,
      keyCount,
      syncedVersion: translations.syncedVersion,
      ...(keptKeys.length > 0 ? { keptLocal: keptKeys } : {}),
    });
  }
  await saveSyncState(project.dir, state);
  problems.print(out.note);
  out.document({ locales: written, ...problems.document() });
  if (keptAny) {
    out.note(`Local changes kept (see above); the server's values of those keys are not in your files.`);
  }
  return problems.exitCode(keptAny ? ExitCode.localChanges : ExitCode.ok);
}
