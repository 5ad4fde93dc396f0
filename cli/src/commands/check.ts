import { changedAnnotations, targetKeys, type ParsedSource, type TargetKeys } from '@tolk/locale-file';
import { projectAndSource } from '../api/project-and-source.js';
import { tolkApi, type Project, type TolkApi } from '../api/tolk-api.js';
import { caughtUpLocales } from '../api/caught-up-locales.js';
import {
  changedSourceTexts,
  findProblems,
  SEVERITY,
  type FindingKind,
  type KeyFinding,
  type LocaleInput,
} from '../check/find-problems.js';
import { failed, report, summaryLine, type CheckFormat, type Finding } from '../check/report.js';
import { valueLines, type ValueLines } from '../check/value-lines.js';
import type { ProjectConfig } from '../config/project-config.js';
import { projectContext } from '../context.js';
import { ExitCode, usageError, withUnreadFiles } from '../errors.js';
import {
  keyPrefix,
  readLocaleFile,
  readSourceFiles,
  serverDocument,
  type FileFailure,
  type PlacedFinding,
  type SourcePart,
} from '../files/file-sets.js';
import { namespaceFiles } from '../files/namespace-files.js';
import { parseLocaleDocument, shown } from '../files/locale-files.js';
import { loadSyncState, type SyncState } from '../files/sync-state.js';
import type { Io } from '../io.js';
import type { Output } from '../output.js';
import { parseLocaleList } from '../locales.js';
import { compileGlossary } from '../translate/glossary.js';
import { projectKeyRules } from '../translate/key-rules.js';
import { valuesOf } from '../translate/merge.js';

export type CheckOptions = {
  locale: string[];
  format: CheckFormat;
  /** Warnings fail the check too. */
  strict?: boolean;
  /**
   * Keys new or changed against the server's main source need their translations as every other
   * key does; without it they are pending, a notice (DESIGN §17).
   */
  requireTranslations?: boolean;
};

/** One target file of a namespace as `check` reads it. */
type TargetFile = {
  part: SourcePart;
  path: string;
  exists: boolean;
  /** It could not be read: its keys are not checked. */
  unread: boolean;
  /** Where its keys' values stand, worked out when a finding is first placed in it. */
  lines: () => ValueLines | undefined;
};

const NO_LINES = () => undefined;

/** Locales whose server state is fetched while an earlier one is checked. */
const LOCALES_AHEAD = 3;

/**
 * Checks the local target files against the local source files and the server, without calling
 * a model (DESIGN §14): missing and outdated keys, placeholders, ICU syntax and plural categories,
 * markup, glossary terms, `maxLength` annotations and copies of the source. Each finding names
 * its file and the line of its key's value; so are the files' own findings (DESIGN §15: a key
 * given twice, a plural without `other`, ...) and each file that cannot be read, at its line and
 * column, whose keys are then not checked. A key the local source adds or changes against the
 * server's main source is pending (DESIGN §17): a notice where its translation is missing or is
 * the server's, made for the older text, unless `requireTranslations`. Exit 1 when there is an
 * error, 0 when there are only warnings and notices (printed; with `strict` warnings fail it too);
 * `partial` when a file could not be read (2 to 4 for usage, auth and network, as everywhere: never
 * for what the files say).
 */
export async function check(io: Io, options: CheckOptions) {
  const { out, project, client } = await projectContext(io, { json: options.format === 'json' });
  const { projectId } = project.config;
  const chosen = chosenLocales(project.config, options.locale);

  // The local files first: a project whose file sets are wrong is exit 2 before any request. A
  // source file that cannot be read is a finding, and its namespace is not checked.
  const sourceFiles = await readSourceFiles(project, await namespaceFiles(project, io.cwd), io.cwd);
  const { parts } = sourceFiles;
  const source = parseLocaleDocument(serverDocument(parts), project.file, io.cwd);

  const api = tolkApi(client);
  const {
    project: projectInfo,
    glossary: glossaryEntries,
    source: sourceFile,
  } = await projectAndSource(api, projectId, 'Nothing to check against yet');
  const serverParsed = parseLocaleDocument(JSON.parse(sourceFile.content), project.file, io.cwd);
  const serverSource = valuesOf(serverParsed);
  const onServer = await localesOnServer(api, projectId, sourceFile.version, chosen, options, io, out);
  const shared: SharedInput = {
    sourceLocale: project.config.sourceLocale,
    source,
    serverSource,
    rules: projectKeyRules(projectInfo),
    glossary: compileGlossary(glossaryEntries.entries),
    contextChanged: contextChangedSince(projectInfo, serverParsed, source),
    requireTranslations: options.requireTranslations ?? false,
  };
  // Whether a local value of a key whose text changed is the server's translation, made for the
  // older text (then pending), needs the server's values.
  const textsChanged = !shared.requireTranslations && changedSourceTexts(source, serverSource).size > 0;
  const i18nextPlurals = projectInfo.settings.i18nextPlurals ?? true;
  // Read only for a locale whose server values are needed: it holds a hash of every value synced.
  let syncState: Promise<SyncState> | undefined;
  const syncedOf = async (locale: string) =>
    (await (syncState ??= loadSyncState(project.dir))).locales[locale];
  const partOfSourceKey = sourcePartsByKey(parts);

  const found = findingsCollector();
  for (const { failure } of sourceFiles.failed) found.unreadable(failure);
  sourceFiles.findings.forEach(found.fileFinding);

  // The server's values matter only for the keys it has outdated (is the local value the one it
  // outdated?) and the keys whose text changed locally: a locale with neither is not downloaded.
  const valuesNeeded = (detail: { outdated: readonly string[] }) =>
    detail.outdated.length > 0 || textsChanged;
  const serverState = fetchedAhead(chosen, LOCALES_AHEAD, async (locale) => {
    if (!onServer.has(locale)) return undefined;
    const detail = await api.getLocale(projectId, locale);
    if (!valuesNeeded(detail)) return { detail, values: new Map<string, string>() };
    const translations = await api.getTranslations(projectId, locale);
    return {
      detail,
      values: valuesOf(parseLocaleDocument(JSON.parse(translations.content), locale, io.cwd)),
    };
  });
  for (const locale of chosen) {
    const targets = await readTargetFiles(parts, locale, io.cwd, found);
    const server = await serverState(locale);
    const target = targetKeys(source, locale, { i18nextPlurals });
    const keyFindings = findProblems({
      ...shared,
      locale,
      target,
      local: targets.local,
      server: server && { values: server.values, outdated: new Set(server.detail.outdated) },
      synced: server && valuesNeeded(server.detail) ? await syncedOf(locale) : undefined,
    });
    const place = placer(source.keys, target, targets.files, partOfSourceKey, targets.keysOfFile);
    placeFindings(found.findings, keyFindings, place, targets.pluralsOfFiles, locale, io.cwd);
  }

  const strict = options.strict ?? false;
  const summary = { sourceVersion: sourceFile.version, locales: chosen, findings: found.findings, strict };
  io.stdout.write(report(options.format, summary));
  // The other formats are read by tools; people still see the outcome on stderr.
  if (options.format === 'github' || options.format === 'gitlab') out.note(summaryLine(summary));
  return withUnreadFiles(failed(summary) ? ExitCode.problems : ExitCode.ok, found.unreadFiles.length);
}

/** What the findings of every locale are judged against: the sources, the rules, the glossary. */
type SharedInput = Omit<LocaleInput, 'locale' | 'target' | 'local' | 'server' | 'synced'>;

/** The locales asked for with --locale, else the project's targets; never the source locale. */
function chosenLocales(config: Pick<ProjectConfig, 'sourceLocale' | 'targetLocales'>, asked: string[]) {
  const { sourceLocale, targetLocales } = config;
  const chosen = asked.length > 0 ? parseLocaleList(asked, '--locale') : targetLocales;
  if (chosen.includes(sourceLocale)) throw usageError(`--locale: ${sourceLocale} is the source locale`);
  if (chosen.length === 0)
    throw usageError('No target locales in tolk.json: add them with `tolk init --targets ...`');
  return chosen;
}

/**
 * The target locales on the server, caught up with the source version. A chosen locale the server
 * does not have is exit 2 when --locale asks for it, else a warning, and is checked without it.
 */
async function localesOnServer(
  api: TolkApi,
  projectId: string,
  sourceVersion: number,
  chosen: readonly string[],
  options: CheckOptions,
  io: Io,
  out: Output,
): Promise<ReadonlySet<string>> {
  const { locales } = await caughtUpLocales(api, projectId, sourceVersion, io.signal);
  const onServer = new Set(locales.map((locale) => locale.locale));
  const unknown = chosen.filter((code) => !onServer.has(code));
  if (options.locale.length > 0 && unknown.length > 0) {
    throw usageError(
      `${unknown.join(', ')}: not a target locale of the project; add it with \`tolk init --targets ...\``,
    );
  }
  for (const code of unknown)
    out.note(`warning: ${code} is in tolk.json but not a target locale on the server; checked without it`);
  return onServer;
}

/**
 * The keys whose annotation changed since the server's source, as the server will find them on
 * push (a key added or deleted since takes its annotation along); undefined when the project does
 * not outdate translations on such a change.
 */
function contextChangedSince(
  projectInfo: Project,
  serverParsed: ParsedSource,
  source: ParsedSource,
): ReadonlySet<string> | undefined {
  const serverKeys = new Set(serverParsed.keys);
  const localKeys = new Set(source.keys);
  return (projectInfo.settings.outdateOnContextChange ?? true)
    ? new Set(
        changedAnnotations(
          serverParsed,
          source,
          (key) => localKeys.has(key) && !serverKeys.has(key),
          (key) => serverKeys.has(key) && !localKeys.has(key),
        ),
      )
    : undefined;
}

/** Which namespace file each source key lives in. */
function sourcePartsByKey(parts: readonly SourcePart[]): Map<string, SourcePart> {
  const partOfSourceKey = new Map<string, SourcePart>();
  for (const part of parts) {
    const prefix = keyPrefix(part.file);
    for (const key of part.parsed.keys) partOfSourceKey.set(prefix + key, part);
  }
  return partOfSourceKey;
}

/** The check's findings as they come, and the files that could not be read. */
function findingsCollector() {
  const findings: Finding[] = [];
  const unreadFiles: FileFailure[] = [];
  const unreadable = (failure: FileFailure) => {
    unreadFiles.push(failure);
    findings.push({
      file: failure.file,
      line: failure.line,
      column: failure.column,
      locale: failure.locale,
      key: null,
      kind: 'unreadable',
      severity: SEVERITY.unreadable,
      message: `${failure.reason} (${failure.code}); its keys are not checked`,
    });
  };
  const fileFinding = (finding: PlacedFinding) =>
    findings.push({
      file: finding.file,
      line: finding.line,
      column: finding.column,
      locale: finding.locale,
      key: finding.key,
      kind: finding.kind,
      severity: finding.severity,
      message: finding.message,
    });
  return { findings, unreadFiles, unreadable, fileFinding };
}

type FindingsCollector = ReturnType<typeof findingsCollector>;

/**
 * A locale's target files, one per namespace, read: their values by key of the server document,
 * the keys each holds, and their own findings (collected, with the files that cannot be read).
 */
async function readTargetFiles(
  parts: readonly SourcePart[],
  locale: string,
  cwd: string,
  found: FindingsCollector,
) {
  const files = new Map<SourcePart, TargetFile>();
  const local = new Map<string, string>();
  /** The keys each file holds (its own, without the namespace): worked out when a finding is placed. */
  const keysOfFile = new Map<SourcePart, () => ReadonlySet<string>>();
  /** Keys a file's own finding says are a plural without `other`: not reported again as ICU. */
  const pluralsOfFiles = new Set<string>();
  for (const part of parts) {
    const path = part.file.pathOf(locale);
    const read = await readLocaleFile(part.file, locale, path, cwd);
    files.set(part, {
      part,
      path,
      exists: read.status !== 'absent',
      unread: read.status === 'failed',
      lines: NO_LINES,
    });
    if (read.status === 'failed') found.unreadable(read.failure);
    if (read.status !== 'read') continue;
    for (const finding of read.findings) {
      found.fileFinding(finding);
      if (finding.kind === 'plural' && finding.key !== null) pluralsOfFiles.add(finding.key);
    }
    const prefix = keyPrefix(part.file);
    const { keys, values } = read.parsed;
    for (let index = 0; index < keys.length; index++) local.set(prefix + keys[index]!, values[index]!);
    let fileKeys: ReadonlySet<string> | undefined;
    keysOfFile.set(part, () => (fileKeys ??= new Set(keys)));
    const format = part.file.set.legacy ? 'json' : part.file.set.format.name;
    const rails = part.file.set.options.rails === true;
    let lines: ValueLines | undefined;
    // Most keys have no finding: a file is read again for its lines only when one does.
    files.get(part)!.lines = () =>
      (lines ??= valueLines(read.bytes.toString('utf8'), format, { locale, rails }));
  }
  return { files, local, keysOfFile, pluralsOfFiles };
}

/**
 * A locale's findings about keys added to `findings`, each at its file and line; a file not read
 * says so once (its keys are not checked), and a file that is not there is one finding, not one
 * per key.
 */
function placeFindings(
  findings: Finding[],
  keyFindings: readonly KeyFinding[],
  place: ReturnType<typeof placer>,
  pluralsOfFiles: ReadonlySet<string>,
  locale: string,
  cwd: string,
): void {
  // A file that is not there is one finding, `missing` when a key of it is, else `pending`.
  const absentFiles = new Map<TargetFile, FindingKind>();
  for (const finding of keyFindings) {
    const { file, line } = place(finding);
    // A file not read says so once; its keys are not checked.
    if (file.unread) continue;
    if ((finding.kind === 'icu' || finding.kind === 'plural') && pluralsOfFiles.has(finding.key)) continue;
    // A file that is not there is one finding, not one per key.
    if (!file.exists && (finding.kind === 'missing' || finding.kind === 'pending')) {
      if (absentFiles.get(file) !== 'missing') absentFiles.set(file, finding.kind);
      continue;
    }
    findings.push({
      file: shown(file.path, cwd),
      line,
      locale,
      key: finding.key,
      kind: finding.kind,
      severity: finding.severity,
      message: finding.message,
    });
  }
  for (const [file, kind] of absentFiles) {
    const sourcePath = shown(file.part.file.sourcePath, cwd);
    findings.push({
      file: shown(file.path, cwd),
      line: 1,
      locale,
      key: null,
      kind,
      severity: SEVERITY[kind],
      message:
        kind === 'missing'
          ? `no ${locale} file: none of the keys of ${sourcePath} are translated`
          : `no ${locale} file: the keys of ${sourcePath} are new or changed against the server's main source; translated once they are pushed there`,
    });
  }
}

/**
 * Where a finding about a key goes: the target file of the key's namespace, at the line of the
 * key's value; a key the file lacks at the line of another form of its plural group, else 1.
 */
function placer(
  sourceKeys: readonly string[],
  target: TargetKeys,
  files: ReadonlyMap<SourcePart, TargetFile>,
  partOfSourceKey: ReadonlyMap<string, SourcePart>,
  keysOfFile: ReadonlyMap<SourcePart, () => ReadonlySet<string>>,
) {
  // The file that holds a key the source lacks: the one of its namespace that has it.
  const partOfLocalKey = (key: string) =>
    [...keysOfFile].find(([part, keys]) => {
      const prefix = keyPrefix(part.file);
      return key.startsWith(prefix) && keys().has(key.slice(prefix.length));
    })?.[0];
  return (finding: KeyFinding): { file: TargetFile; line: number } => {
    const entry = target.byKey.get(finding.key);
    const part =
      partOfLocalKey(finding.key) ??
      (entry ? partOfSourceKey.get(sourceKeys[entry.sources[0]!]!) : undefined) ??
      [...files.keys()][0]!;
    const file = files.get(part)!;
    const prefix = keyPrefix(part.file);
    const lines = file.lines();
    if (!lines) return { file, line: 1 };
    const local = (key: string) => key.slice(prefix.length);
    if (lines.has(local(finding.key))) return { file, line: lines.lineOf(local(finding.key)) };
    const siblings = entry?.group ? (target.formsOf.get(entry.group) ?? []) : [];
    const sibling = siblings.find((other) => lines.has(local(other.key)));
    return { file, line: sibling ? lines.lineOf(local(sibling.key)) : 1 };
  };
}

/**
 * `fetch` of each of `items`, asked for in their order: asking for one starts it and the next
 * `ahead` ones, so that the server answers while the caller works on what it has.
 */
function fetchedAhead<T>(
  items: readonly string[],
  ahead: number,
  fetch: (item: string) => Promise<T>,
): (item: string) => Promise<T> {
  const started = new Map<string, Promise<T>>();
  let next = 0;
  return (item) => {
    const at = items.indexOf(item);
    for (; next < items.length && next <= at + ahead; next++) {
      const promise = fetch(items[next]!);
      // A failure is the caller's when it asks for that item; one never asked for is not thrown.
      promise.catch(() => undefined);
      started.set(items[next]!, promise);
    }
    const promise = started.get(item) ?? fetch(item);
    started.delete(item);
    return promise;
  };
}
