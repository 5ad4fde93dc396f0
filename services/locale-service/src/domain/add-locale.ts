import type { Principal } from '@tolk/contracts';
import { ConflictError, ValidationError } from '@tolk/errors';
import type { LocaleUseCaseDeps } from './locale-deps.js';
import { presentLocale, type Locale } from './locale-record.js';
import { prepareKeyRules, ruledKeysOf, targetKeysOf, untranslatedCounts } from './locale-state.js';

/** `POST .../locales`: a target locale added, nothing translated; 409 when present, 400 for the source locale. */
export function createAddLocale(deps: LocaleUseCaseDeps) {
  const { locales, projects, writerCheck, documents, baseline, now } = deps;
  const { requireLocale } = deps.reads;
  const { open } = deps.access;

  return async function add(
    principal: Principal | undefined,
    projectId: string,
    locale: string,
  ): Promise<Locale> {
    const { project, head } = await open(principal, projectId, 'manage');
    if (locale === project.sourceLocale) {
      throw new ValidationError(`locale: ${locale} is the project's source locale, not a target locale`);
    }
    // The locale's keys depend on the source's plural groups, the project's setting and key rules.
    const source = head.version > 0 ? await documents.version(projectId, head.version) : undefined;
    const at = now();
    const atCommit = writerCheck.atCommit(principal, projectId);
    await baseline.change(
      projectId,
      async (tx) => {
        const { i18nextPlurals, keyRules } = await projects.lockKeySettings(projectId, tx);
        const target = source && targetKeysOf(source, locale, i18nextPlurals);
        const keys = target ? target.keys : source?.keys;
        const ruled = source && ruledKeysOf(source, target, await prepareKeyRules(keyRules, source, target));
        const counts = untranslatedCounts(head.version, keys ? keys.length : head.keyCount, ruled);
        const added = await locales.insert(projectId, locale, counts, at, tx);
        if (!added) throw new ConflictError(`Locale ${locale} is already a target locale of this project`);
      },
      atCommit,
    );
    return presentLocale(await requireLocale(projectId, locale), head.version);
  };
}
