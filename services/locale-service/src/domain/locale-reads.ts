import type { Db, Queryable } from '@tolk/db';
import { decodeStoredEntries, forEachInSlices } from '@tolk/locale-file';
import type { LocaleRow, LocalesRepository } from '../data-access/locales-repository.js';
import {
  keySettingsOf,
  type KeySettings,
  type ProjectsRepository,
} from '../data-access/projects-repository.js';
import type { SourceVersion } from '../data-access/source-client.js';
import { decodeFindings, type KeyFindings } from './locale-findings.js';
import { localeNotFound } from './locale-record.js';
import { mayHaveHadPluralGroups } from './locale-state.js';
import { decodeProvenance } from './provenance.js';
import type { SourceDocuments } from './source-documents.js';

/** A translations map of the stored form, in time slices; an empty value counts as not translated. */
export async function translationsOf(entries: {
  keys: readonly string[];
  values: readonly string[];
}): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  await forEachInSlices(entries.keys.length, (i) => {
    const value = entries.values[i]!;
    if (value !== '') map.set(entries.keys[i]!, value);
  });
  return map;
}

const NO_TRANSLATIONS: ReadonlyMap<string, string> = new Map();

/** The translations of a stored upload (compressed); none when nothing was uploaded. */
export async function decodeTranslations(content: Buffer | undefined): Promise<ReadonlyMap<string, string>> {
  return content ? translationsOf(await decodeStoredEntries(content)) : NO_TRANSLATIONS;
}

/**
 * What the use cases read of a locale, of its project's key settings and of the source, decoded:
 * the stored translations, their findings and who wrote them, the locale's row.
 */
export function createLocaleReads(deps: {
  db: Db;
  locales: LocalesRepository;
  projects: Pick<ProjectsRepository, 'find'>;
  documents: SourceDocuments;
}) {
  const { db, locales, projects, documents } = deps;

  async function storedTranslations(projectId: string, locale: string, q: Queryable = db) {
    return decodeTranslations(await locales.content(projectId, locale, q));
  }

  /** The findings of the locale's stored translations, as judged when they were uploaded. */
  async function storedFindings(projectId: string, locale: string, q: Queryable = db): Promise<KeyFindings> {
    return decodeFindings(await locales.findings(projectId, locale, q));
  }

  /** The locale's translations and the provenance of their keys, decoded, and as stored (`raw`). */
  async function storedWithProvenance(projectId: string, locale: string, q: Queryable = db) {
    const raw = await locales.translations(projectId, locale, q);
    if (!raw) throw localeNotFound(locale);
    const [translations, provenance] = await Promise.all([
      decodeTranslations(raw.content),
      decodeProvenance(raw.provenance),
    ]);
    return { translations, provenance, raw };
  }

  async function requireLocale(projectId: string, locale: string, q: Queryable = db): Promise<LocaleRow> {
    const row = await locales.find(projectId, locale, q);
    if (!row) throw localeNotFound(locale);
    return row;
  }

  /**
   * The project's plural-key setting and key rules, for counts saved in `tx`. Read after the
   * locale rows they are saved to are locked: a ProjectUpdated changing them marks every locale
   * row stale in its own transaction, so either it committed before those locks (this sees the
   * new settings) or it waits for them and marks the rows stale after (they are recomputed). A
   * row being inserted is not seen by it: `add` share-locks the settings instead (lockKeySettings).
   */
  async function keySettings(projectId: string, tx: Queryable): Promise<KeySettings> {
    return keySettingsOf(await projects.find(projectId, tx));
  }

  /**
   * The keys of the version a locale's translations were made from, where the state needs them:
   * the source has plural groups, or what may be left of one, and the translations are older (a
   * group's forms may have changed since).
   */
  async function keysMadeFrom(
    projectId: string,
    source: SourceVersion,
    from: number,
  ): Promise<readonly string[] | undefined> {
    if (from <= 0 || from >= source.version || !mayHaveHadPluralGroups(source)) return undefined;
    return (await documents.version(projectId, from)).keys;
  }

  return {
    storedTranslations,
    storedFindings,
    storedWithProvenance,
    requireLocale,
    keySettings,
    keysMadeFrom,
  };
}

export type LocaleReads = ReturnType<typeof createLocaleReads>;

/** A locale's translations and who wrote them, decoded, and as stored (storedWithProvenance). */
export type StoredWithProvenance = Awaited<ReturnType<LocaleReads['storedWithProvenance']>>;
