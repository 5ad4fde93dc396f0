/**
 * The first day of nine real apps (cli/test/support/real-apps-first-day.ts): NewPipe's Android
 * resources, Mastodon for iOS' strings and stringsdict files, Ente's ARB files, Wagtail's gettext
 * catalogs, Headlamp's i18next namespaces, Jenkins' Java properties, Mastodon's Rails YAML and web
 * app messages, and Ghostfolio's XLIFF. The tenth, Ice Cubes' String Catalog, takes as long as
 * these together: it is in real-apps-adoption-string-catalog.test.ts, which runs beside this file.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { realApp, REAL_APPS, realAppsPresent } from './support/real-apps.js';
import { realAppsFirstDay, refusedMessages, RES, targetPaths } from './support/real-apps-first-day.js';

const present = realAppsPresent();

describe.skipIf(!present)("real apps' first day: init, push, translate, pull, check", () => {
  const of = realAppsFirstDay(REAL_APPS.filter((app) => app !== 'apple-xcstrings'));

  it("when Wagtail's catalogs are translated and pulled, then each keeps its header and translators' credits byte for byte", async () => {
    const head = (text: string) => text.slice(0, text.indexOf('\n\n'));
    for (const { path, absolute } of targetPaths(
      of('gettext'),
      (locale) => `wagtail/admin/locale/${locale}/LC_MESSAGES/django.po`,
    )) {
      const before = head(await readFile(`${realApp('gettext')}/${path}`, 'utf8'));
      expect(before, path).toContain('# Translators:');
      expect(head(await readFile(absolute, 'utf8')), path).toBe(before);
    }
  });

  it('when NewPipe is checked, then each Polish plural without other is an error at its file and line', async () => {
    const app = of('android');
    const path = `${RES}/values-pl/strings.xml`;
    const text = await readFile(app.path(path), 'utf8');
    const withoutOther = [...text.matchAll(/<plurals name="([^"]+)">(.*?)<\/plurals>/gs)]
      .filter((match) => !match[2]!.includes('quantity="other"'))
      .map((match) => ({ key: match[1]!, line: text.slice(0, match.index).split('\n').length }));
    expect(withoutOther).toHaveLength(5);
    const found = app.findings
      .filter((finding) => finding.locale === 'pl' && finding.message.includes('no item of quantity "other"'))
      .map(({ key, line, file, severity }) => ({ key, line, file, severity }));
    expect(found).toEqual(
      withoutOther.map(({ key, line }) => ({ key, line, file: path, severity: 'error' })),
    );
  });

  it("when Mastodon's web app is checked, then its malformed ICU message is an error at its line", async () => {
    const app = of('mastodon-web');
    const refused: { locale: string; key: string; line: number }[] = [];
    for (const locale of app.config.targetLocales) {
      const path = `app/javascript/mastodon/locales/${locale}.json`;
      const text = await readFile(app.path(path), 'utf8');
      for (const key of refusedMessages(JSON.parse(text) as Record<string, unknown>, locale)) {
        const line = text.split('\n').findIndex((row) => row.startsWith(`  ${JSON.stringify(key)}:`)) + 1;
        refused.push({ locale, key, line });
      }
    }
    expect(refused.length).toBeGreaterThan(0);
    for (const { locale, key, line } of refused) {
      expect(app.findings).toContainEqual(
        expect.objectContaining({
          file: `app/javascript/mastodon/locales/${locale}.json`,
          line,
          locale,
          key,
          kind: 'icu',
          severity: 'error',
        }),
      );
    }
  });
});
