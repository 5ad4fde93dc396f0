import type { LocaleResponse } from '@tolk/contracts';
import { sleep } from '../sleep.js';
import type { TolkApi } from './tolk-api.js';

const WAIT_MS = 10_000;
const STEP_MS = 150;

/**
 * The project's target locales once locale-service has heard of source version `sourceVersion`
 * (which the caller has just read). Status follows source uploads through an event, so for a
 * moment after `tolk push` the locales may still count against the previous version; waiting
 * (briefly) for the event gives `status --check` and `translate` the answer a user expects right
 * after a push. If the event is slower than that, locales not yet caught up are reported behind,
 * which they are.
 */
export async function caughtUpLocales(
  api: TolkApi,
  projectId: string,
  sourceVersion: number,
  signal: AbortSignal,
): Promise<{ locales: LocaleResponse[]; caughtUp: boolean }> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const { locales } = await api.listLocales(projectId);
    const caughtUp = locales.every((locale) => locale.sourceVersion >= sourceVersion);
    if (caughtUp || Date.now() > deadline) {
      const effective = locales.map((locale) =>
        locale.syncedVersion < sourceVersion ? { ...locale, status: 'behind' as const } : locale,
      );
      return { locales: effective, caughtUp };
    }
    await sleep(STEP_MS, signal);
  }
}
