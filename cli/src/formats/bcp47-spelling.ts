import { parseTargetLocale } from '@tolk/contracts';

/**
 * Locale spellings that are BCP 47 with a separator of their own: `pt-BR` as i18next and plain
 * JSON apps name their files and folders, `pt_BR` as Flutter does (`app_pt_BR.arb`,
 * `app_zh_Hant.arb`).
 */
export type Bcp47Spelling = {
  spellLocale(locale: string): string;
  readLocale(spelled: string): string | undefined;
};

/**
 * `separator` between the subtags. A spelling is read only when it is a locale code the server
 * takes (the target locale rules of @tolk/contracts) and is spelled exactly as `spellLocale`
 * would spell it, so the file the CLI reads for a locale is the file it writes for it: `en-gb`
 * or `pt-BR` in a Flutter file name are no spelling of theirs (tolk.json can map them by hand).
 */
export function bcp47Spelling(separator: '-' | '_'): Bcp47Spelling {
  const spellLocale = (locale: string) => locale.replaceAll('-', separator);
  return {
    spellLocale,
    readLocale(spelled) {
      if (separator === '_' && spelled.includes('-')) return undefined;
      const parsed = parseTargetLocale(spelled.replaceAll(separator, '-'));
      return parsed.ok && spellLocale(parsed.locale) === spelled ? parsed.locale : undefined;
    },
  };
}

/**
 * Apple's folders: `pt-BR.lproj`, `zh-Hant.lproj`, BCP 47 with `-`; `Base.lproj` (Interface
 * Builder's base internationalization) spells no locale.
 */
const dashed = bcp47Spelling('-');
export const lprojSpelling: Bcp47Spelling = {
  spellLocale: dashed.spellLocale,
  readLocale: (spelled) => (spelled === 'Base' ? undefined : dashed.readLocale(spelled)),
};
