import type { Principal } from '@tolk/contracts';
import type { Finding } from '@tolk/locale-file';
import type { LocaleUseCaseDeps } from './locale-deps.js';
import { findingsOfKeys, NO_FINDINGS } from './locale-findings.js';
import { presentLocale, type Locale } from './locale-record.js';
import { computeLocaleState, prepareKeyRules, RULED, ruledKeysOf, targetKeysOf } from './locale-state.js';

export type LocaleDetail = Locale & { missing: string[]; outdated: string[]; findings: Finding[] };

/** `GET .../locales/{locale}`: a target locale's record, the keys left to translate and their findings. */
export function createReadLocale({ documents, reads, access }: LocaleUseCaseDeps) {
  const { storedTranslations, storedFindings, keysMadeFrom } = reads;
  const { settledLocale } = access;

  return async function get(
    principal: Principal | undefined,
    projectId: string,
    locale: string,
  ): Promise<LocaleDetail> {
    const { row, i18nextPlurals, keyRules, head } = await settledLocale(principal, projectId, locale);
    const hasFindings = row.errorCount + row.warningCount > 0;
    if (row.missingCount === 0 && row.outdatedCount === 0 && !hasFindings) {
      return { ...presentLocale(row, head.version), missing: [], outdated: [], findings: [] };
    }
    const source = await documents.version(
      projectId,
      row.countsVersion < 0 ? head.version : row.countsVersion,
    );
    const target = targetKeysOf(source, locale, i18nextPlurals);
    const rules = await prepareKeyRules(keyRules, source, target);
    const findings = hasFindings ? await storedFindings(projectId, locale) : NO_FINDINGS;
    const state = await computeLocaleState(
      source,
      target,
      await storedTranslations(projectId, locale),
      row.translatedFrom,
      i18nextPlurals ? await keysMadeFrom(projectId, source, row.translatedFrom) : undefined,
      rules,
      findings,
    );
    const ruled = ruledKeysOf(source, target, rules);
    const shown = await findingsOfKeys(
      target ? target.keys : source.keys,
      findings,
      (i) => (ruled?.rules[i] ?? 0) >= RULED.neverTranslate,
    );
    return {
      ...presentLocale(row, head.version),
      missing: state.missing,
      outdated: state.outdated,
      findings: shown,
    };
  };
}
