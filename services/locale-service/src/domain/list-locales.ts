import type { Principal } from '@tolk/contracts';
import type { LocaleUseCaseDeps } from './locale-deps.js';
import { presentLocale, type Locale } from './locale-record.js';

/** `GET .../locales`: the project's target locales, in the order they were added. */
export function createListLocales({ locales, access }: LocaleUseCaseDeps) {
  const { open } = access;

  return async function list(principal: Principal | undefined, projectId: string): Promise<Locale[]> {
    const { head } = await open(principal, projectId, 'read');
    return (await locales.list(projectId)).map((row) => presentLocale(row, head.version));
  };
}
