import type { Principal } from '@tolk/contracts';
import { rebuildTranslation } from '@tolk/locale-file';
import type { LocaleUseCaseDeps } from './locale-deps.js';
import { prepareKeyRules, ruledValueOf, targetKeysOf } from './locale-state.js';
import { keepProvenanceOf, shownProvenanceOf, UNKNOWN_WRITER, type Provenance } from './provenance.js';

export type Translations = {
  locale: string;
  syncedVersion: number;
  /** The source version the stored translations were uploaded for; 0: none. */
  translatedFrom: number;
  content: string;
  updatedAt: number;
  /** Key of `content` → who wrote its translation, in the order of `content`, where it is known. */
  provenance: ReadonlyMap<string, Provenance>;
  /** Keys of `content` whose stored translation has no known writer, in the order of `content`. */
  unknownWriters: string[];
  /** The revision of the stored translations `content` shows: its entity tag. */
  revision: number;
};

/**
 * `GET .../locales/{locale}/translations`: a locale's translations, in the current source's nesting
 * and key order, with who wrote each and the revision they are at.
 */
export function createDownloadTranslations({ documents, reads, access }: LocaleUseCaseDeps) {
  return async function download(
    principal: Principal | undefined,
    projectId: string,
    locale: string,
  ): Promise<Translations> {
    const { row, i18nextPlurals, keyRules, head } = await access.settledLocale(principal, projectId, locale);
    const { translations, provenance, raw } = await reads.storedWithProvenance(projectId, locale);
    const rules = await prepareKeyRules(keyRules);
    const source =
      translations.size > 0 || !rules.empty ? await documents.version(projectId, head.version) : undefined;
    const target = source && targetKeysOf(source, row.locale, i18nextPlurals);
    if (source) await prepareKeyRules(keyRules, source, target);
    const valueOf = source ? ruledValueOf(source, target, rules, translations) : () => undefined;
    // The locale's own plural forms at each group's place; stored forms it does not use (left
    // by the setting switched off and on again) are not asked for, so not written.
    const written: string[] = [];
    const document = source
      ? rebuildTranslation(
          source,
          (key) => {
            const value = valueOf(key);
            if (value !== undefined) written.push(key);
            return value;
          },
          { locale: row.locale, target },
        )
      : {};
    return {
      locale,
      syncedVersion: row.syncedVersion,
      translatedFrom: row.translatedFrom,
      content: JSON.stringify(document),
      updatedAt: row.translatedAt ?? row.createdAt,
      provenance: keepProvenanceOf(provenance, written),
      unknownWriters: written.filter(
        (key) => shownProvenanceOf(provenance, translations, key) === UNKNOWN_WRITER,
      ),
      revision: raw.revision,
    };
  };
}
