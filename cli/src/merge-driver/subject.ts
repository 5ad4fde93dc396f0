/** Which locale file of a project's file sets a path is, as the merge driver reads it. */
import type { LoadedProjectConfig } from '../config/project-config.js';
import { namespaceFiles } from '../files/namespace-files.js';
import { shown } from '../files/locale-files.js';
import type { MergeSubject, View } from './merge-locale-file.js';

/**
 * The file at `path` (absolute) as a locale file of the project's file sets: its format and the
 * locales it is read and written as; undefined when no file set claims it for one of the
 * project's locales.
 */
export async function mergeSubjectOf(
  loaded: LoadedProjectConfig,
  path: string,
  cwd: string,
): Promise<MergeSubject | undefined> {
  const { sourceLocale, targetLocales } = loaded.config;
  for (const file of await namespaceFiles(loaded, cwd)) {
    const { format, options } = file.set;
    const subject = { format, options, sourceLocale, path: shown(path, cwd) };
    if (format.oneFileForAllLocales) {
      if (file.sourcePath !== path) continue;
      const views: View[] = [
        { locale: sourceLocale, source: true },
        ...targetLocales.map((locale) => ({ locale, source: false })),
      ];
      return { ...subject, views, written: views.map((view) => view.locale) };
    }
    if (file.sourcePath === path) {
      return { ...subject, views: [{ locale: sourceLocale, source: true }], written: [sourceLocale] };
    }
    const locale = targetLocales.find((target) => file.pathOf(target) === path);
    if (locale === undefined) continue;
    // A target file may hold the source's texts too (XLIFF's `<source>`): read so, they merge as well.
    const views: View[] = [
      { locale, source: false },
      { locale: sourceLocale, source: false },
    ];
    return { ...subject, views, written: [locale] };
  }
  return undefined;
}
