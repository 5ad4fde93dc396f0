/** Which locale file of a project's file sets a path is, as the merge driver reads it. */
import type { LoadedProjectConfig } from '../config/project-config.js';
import { namespaceFiles } from '../files/namespace-files.js';
import { shown } from '../files/locale-files.js';
import type { FormatOptions, LocaleFormat } from '../formats/index.js';
import type { MergeSubject, View } from './merge-locale-file.js';

/**
 * A locale file as the merge reads and writes it: a file of one locale as that locale (a target
 * file also as the source locale, whose texts it may hold too: XLIFF's `<source>`), a file of
 * every locale (`locale` undefined) as each of the project's locales, the source first.
 */
export function localeFileSubject(options: {
  format: LocaleFormat;
  formatOptions: FormatOptions;
  sourceLocale: string;
  targetLocales: readonly string[];
  /** The file's locale; undefined for a file that holds every locale. */
  locale: string | undefined;
  path: string;
}): MergeSubject {
  const { format, formatOptions, sourceLocale, targetLocales, locale, path } = options;
  const subject = { format, options: formatOptions, sourceLocale, path };
  if (locale === undefined) {
    const views: View[] = [
      { locale: sourceLocale, source: true },
      ...targetLocales.map((target) => ({ locale: target, source: false })),
    ];
    return { ...subject, views, written: views.map((view) => view.locale) };
  }
  if (locale === sourceLocale) return { ...subject, views: [{ locale, source: true }], written: [locale] };
  const views: View[] = [
    { locale, source: false },
    { locale: sourceLocale, source: false },
  ];
  return { ...subject, views, written: [locale] };
}

/**
 * The file at `path` (absolute) as a locale file of the project's file sets; undefined when no
 * file set claims it for one of the project's locales.
 */
export async function mergeSubjectOf(
  loaded: LoadedProjectConfig,
  path: string,
  cwd: string,
): Promise<MergeSubject | undefined> {
  const { sourceLocale, targetLocales } = loaded.config;
  for (const file of await namespaceFiles(loaded, cwd)) {
    const { format, options } = file.set;
    const locale = format.oneFileForAllLocales
      ? file.sourcePath === path
        ? undefined
        : null
      : file.sourcePath === path
        ? sourceLocale
        : (targetLocales.find((target) => file.pathOf(target) === path) ?? null);
    if (locale === null) continue;
    return localeFileSubject({
      format,
      formatOptions: options,
      sourceLocale,
      targetLocales,
      locale,
      path: shown(path, cwd),
    });
  }
  return undefined;
}
