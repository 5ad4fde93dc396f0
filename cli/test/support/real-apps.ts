/**
 * The real apps' locale files (`../shared/corpus/real-apps/` beside the repository: ten
 * open-source apps' own files, in their own folder layout; its SOURCES.md says where each came
 * from). Tests read them there or copy them to a temporary folder; they are never part of the
 * repository. Missing, their tests fail under CI and are skipped, loudly, elsewhere.
 */
import { existsSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `TOLK_REAL_APPS_DIR` when set; else `shared/corpus/real-apps` beside the repository, or beside
 * the nearest folder above it that has one (a clone made one level deeper still finds it).
 */
function findRealApps(): string {
  const named = process.env['TOLK_REAL_APPS_DIR'];
  if (named) return resolve(named);
  const repository = fileURLToPath(new URL('../../../', import.meta.url));
  for (let dir = resolve(repository, '..'); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'corpus', 'real-apps');
    if (existsSync(candidate) || dirname(dir) === dir) {
      return existsSync(candidate) ? candidate : resolve(repository, '..', 'shared', 'corpus', 'real-apps');
    }
  }
}

export const REAL_APPS_DIR = findRealApps();

export const REAL_APPS = [
  'android',
  'apple-strings',
  'apple-xcstrings',
  'flutter-arb',
  'gettext',
  'i18next-namespaces',
  'java-properties',
  'mastodon-rails',
  'mastodon-web',
  'xliff',
] as const;
export type RealApp = (typeof REAL_APPS)[number];

/**
 * Whether the corpus is there, every app of it. Under CI (`CI=true`) a missing corpus throws, so
 * the test file fails saying where it was looked for; elsewhere it warns and the caller skips.
 */
export function realAppsPresent(): boolean {
  const missing = REAL_APPS.filter((app) => !existsSync(join(REAL_APPS_DIR, app)));
  if (missing.length === 0) return true;
  const message =
    `The real apps' corpus is missing at ${REAL_APPS_DIR} (${missing.join(', ')}): ` +
    'check out the shared folder beside the repository';
  if (process.env['CI'] === 'true') throw new Error(message);
  console.warn(`${message}; the tests that read it are skipped`);
  return false;
}

/** The folder of a real app, to read. */
export function realApp(app: RealApp): string {
  return join(REAL_APPS_DIR, app);
}

/** Copies a real app's files into `dir` (a temporary folder of a test). */
export async function copyRealApp(app: RealApp, dir: string): Promise<void> {
  await cp(realApp(app), dir, { recursive: true });
}
