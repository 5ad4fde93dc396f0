import { tolkApi } from '../api/tolk-api.js';
import { localeFilePath } from '../config/project-config.js';
import { projectContext } from '../context.js';
import { ExitCode, usageError } from '../errors.js';
import { parseLocaleDocument, shown, writeLocaleFile } from '../files/locale-files.js';
import type { Io } from '../io.js';
import { parseLocaleList } from '../locales.js';

/** Writes the server's translations of each target locale (or the --locale ones) into the local files. */
export async function pull(io: Io, options: { locale: string[]; json: boolean }) {
  const { out, project, client } = await projectContext(io, options);
  const { projectId, targetLocales, sourceLocale } = project.config;
  const locales = options.locale.length > 0 ? parseLocaleList(options.locale, '--locale') : targetLocales;
  if (locales.includes(sourceLocale))
    throw usageError(`--locale: ${sourceLocale} is the source locale; pull writes targets`);
  const api = tolkApi(client);
  const written = [];
  for (const locale of locales) {
    const translations = await api.getTranslations(projectId, locale);
    const document = JSON.parse(translations.content) as unknown;
    const path = localeFilePath(project, locale);
    const keyCount = parseLocaleDocument(document, path, io.cwd).keys.length;
    await writeLocaleFile(path, document);
    const file = shown(path, io.cwd);
    out.line(
      `${locale}: wrote ${file} (${keyCount} keys, synced with source version ${translations.syncedVersion})`,
    );
    written.push({ locale, file, keyCount, syncedVersion: translations.syncedVersion });
  }
  out.document({ locales: written });
  return ExitCode.ok;
}
