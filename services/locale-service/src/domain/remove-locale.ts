import type { Principal } from '@tolk/contracts';
import type { LocaleUseCaseDeps } from './locale-deps.js';
import { localeNotFound } from './locale-record.js';

/** `DELETE .../locales/{locale}`: its translations, retired ones and the memory's go with it; the baseline moves. */
export function createRemoveLocale({
  locales,
  writerCheck,
  baseline,
  memory,
  retired,
  access,
}: LocaleUseCaseDeps) {
  const { open } = access;

  return async function remove(principal: Principal | undefined, projectId: string, locale: string) {
    await open(principal, projectId, 'manage');
    const atCommit = writerCheck.atCommit(principal, projectId);
    await baseline.change(
      projectId,
      async (tx) => {
        if (!(await locales.delete(projectId, locale, tx))) throw localeNotFound(locale);
        await memory.forgetLocale(projectId, locale, tx);
        await retired.purge(projectId, locale, tx);
      },
      atCommit,
    );
  };
}
