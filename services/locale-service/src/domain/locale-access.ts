import type { Principal } from '@tolk/contracts';
import { authorizeProject, type ProjectDirectory } from '@tolk/projects';
import type { LocalesRepository } from '../data-access/locales-repository.js';
import type { LocaleProject } from '../data-access/projects-repository.js';
import { localeNotFound } from './locale-record.js';
import type { RefreshLocales } from './refresh-locales.js';
import type { SourceDocuments } from './source-documents.js';

/**
 * How a use case opens a project (`open`: the principal's right, the project, its locales' counts
 * current) and a locale of it to read (`settledLocale`: its row with counts not stale).
 */
export function createLocaleAccess(deps: {
  locales: Pick<LocalesRepository, 'findWithPluralsSetting'>;
  directory: ProjectDirectory<LocaleProject>;
  documents: Pick<SourceDocuments, 'head'>;
  refresh: RefreshLocales['refresh'];
}) {
  const { locales, directory, documents, refresh } = deps;

  /** The project exists and the principal may do `need`; the source head, counts current. */
  async function open(
    principal: Principal | undefined,
    projectId: string,
    need: 'read' | 'write' | 'manage',
  ) {
    authorizeProject(principal, projectId, need);
    const project = await directory.require(projectId);
    // Shown against the head the counts were refreshed to. A SourceChanged that committed while
    // they were refreshed is taken in too, rather than left for the next read.
    let head = await refresh(projectId);
    if ((await documents.head(projectId)).version > head.version) head = await refresh(projectId);
    return { project, head };
  }

  /**
   * The project opened for reading (`open`), and the locale's row, counts not stale, and the
   * plural-key setting they were computed with (see findWithPluralsSetting): what the missing and
   * outdated lists and the download are worked out with. A setting changed since the counts were
   * refreshed left them stale: they are refreshed and read again (a few times at most, then shown
   * as they are).
   */
  async function settledLocale(principal: Principal | undefined, projectId: string, locale: string) {
    let { head } = await open(principal, projectId, 'read');
    for (let attempt = 1; ; attempt++) {
      const found = await locales.findWithPluralsSetting(projectId, locale);
      if (!found) throw localeNotFound(locale);
      if (found.row.countsVersion >= 0 || attempt === 3) return { ...found, head };
      head = await refresh(projectId);
    }
  }

  return { open, settledLocale };
}

export type LocaleAccess = ReturnType<typeof createLocaleAccess>;
