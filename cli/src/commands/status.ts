import { NO_KEY_RULES, type LocaleResponse } from '@tolk/contracts';
import { tolkApi } from '../api/tolk-api.js';
import { caughtUpLocales } from '../api/caught-up-locales.js';
import { projectContext } from '../context.js';
import { ApiError, ExitCode } from '../errors.js';
import type { Io } from '../io.js';
import { describeKeyRules } from '../translate/key-rules.js';

/**
 * Every target locale of the project with its status, missing and outdated counts, the keys whose
 * translations have errors and warnings (DESIGN §15: a person's translation is kept with its
 * findings, and counts as translated) and the source version its translations have caught up with. `--check`: 0 when all are up to date,
 * 1 when any is behind (errors are 2 to 4 as everywhere). The project's key rules are named: the
 * counts follow them (DESIGN §13).
 */
export async function status(io: Io, options: { check: boolean; json: boolean }) {
  const { out, project, client } = await projectContext(io, options);
  const { projectId, targetLocales } = project.config;
  const api = tolkApi(client);
  const [projectInfo, sourceVersion] = await Promise.all([
    api.getProject(projectId),
    api.getSource(projectId).then(
      (source) => source.version,
      (error: unknown) => {
        if (error instanceof ApiError && error.code === 'NOT_FOUND') return 0;
        throw error;
      },
    ),
  ]);
  const keyRules = projectInfo.settings.keyRules ?? NO_KEY_RULES;
  const { locales, caughtUp } = await caughtUpLocales(api, projectId, sourceVersion, io.signal);
  const notOnServer = targetLocales.filter((code) => !locales.some((locale) => locale.locale === code));
  const upToDate = locales.every((locale) => locale.status === 'up_to_date');

  if (locales.length === 0) {
    out.line('No target locales on the server: add them with `tolk init --targets ...`.');
  } else {
    out.line(`Source version ${sourceVersion}, ${locales[0]!.keyCount} keys.`);
    if (!caughtUp) out.note('note: the server is still counting the latest upload; counts may lag behind');
    for (const line of table(locales)) out.line(line);
  }
  const rulesLine = describeKeyRules(keyRules);
  if (rulesLine) out.line(rulesLine);
  for (const code of notOnServer)
    out.note(`warning: ${code} is in tolk.json but not a target locale on the server`);
  out.document({ projectId, sourceVersion, upToDate, locales, keyRules });
  if (options.check) {
    if (!upToDate) out.note('Some locales are behind: run `tolk translate`.');
    return upToDate ? ExitCode.ok : ExitCode.behind;
  }
  return ExitCode.ok;
}

function table(locales: readonly LocaleResponse[]): string[] {
  const rows = [
    ['locale', 'status', 'missing', 'outdated', 'errors', 'warnings', 'translated', 'synced'],
    ...locales.map((locale) => [
      locale.locale,
      locale.status === 'up_to_date' ? 'up to date' : 'behind',
      String(locale.missingCount),
      String(locale.outdatedCount),
      String(locale.errorCount),
      String(locale.warningCount),
      `${locale.translatedCount}/${locale.keyCount}`,
      `v${locale.syncedVersion} of v${locale.sourceVersion}`,
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map(
    (row) =>
      '  ' +
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
  );
}
