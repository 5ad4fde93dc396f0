/**
 * `tolk init` on ten real apps' own locale files (../shared/corpus/real-apps): detectLayout finds
 * each app's file sets, source and target locales, and `tolk init --yes` on a copy of the app
 * writes the tolk.json that says so and adds the targets to the new project, with no flag beyond
 * --yes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../../test/e2e/system.js';
import { detectLayout } from '../../src/init/detect-layout.js';
import type { LayoutProposal } from '../../src/init/propose-layout.js';
import { createCliHarness } from '../support/cli-harness.js';
import { copyRealApp, realApp, realAppsPresent, REAL_APPS, type RealApp } from '../support/real-apps.js';

/** `dir/` before each of `paths`. */
const under = (dir: string, paths: string[]) => paths.map((path) => `${dir}/${path}`);

const LPROJ = 'MastodonSDK/Sources/MastodonLocalization/Resources';
const HEADLAMP = 'frontend/src/i18n/locales';
const JENKINS = 'core/src/main/resources/hudson/model';
const FOUND_TWO_FILE_SETS =
  "Found 2 file sets: each is a namespace of the project's keys (Localizable, Localizable-stringsdict). " +
  'Keep the ones you want, or name the files with --files.';

/** What detectLayout proposes for each app, and the `files` and locales tolk.json then gets. */
const EXPECTED: Record<
  RealApp,
  { proposal: LayoutProposal; config: { sourceLocale: string; files: unknown } }
> = {
  android: {
    proposal: {
      fileSets: [
        {
          fileSet: {
            path: 'app/src/main/res/values-{locale}/strings.xml',
            format: 'android',
            source: 'app/src/main/res/values/strings.xml',
          },
          locales: ['ar', 'de', 'pl', 'ru', 'zh-CN'],
          files: under('app/src/main/res', [
            'values-ar/strings.xml',
            'values-de/strings.xml',
            'values-pl/strings.xml',
            'values-ru/strings.xml',
            'values-zh-rCN/strings.xml',
            'values/strings.xml',
          ]),
        },
      ],
      targetLocales: ['ar', 'de', 'pl', 'ru', 'zh-CN'],
      notes: [
        'app/src/main/res/values/strings.xml names no locale: the source locale is the one --source names (en when not given)',
      ],
    },
    config: {
      sourceLocale: 'en',
      files: [
        {
          path: 'app/src/main/res/values-{locale}/strings.xml',
          format: 'android',
          source: 'app/src/main/res/values/strings.xml',
        },
      ],
    },
  },
  'apple-strings': {
    proposal: {
      fileSets: [
        {
          fileSet: {
            path: `${LPROJ}/{locale}.lproj/Localizable.strings`,
            format: 'strings',
            namespace: 'Localizable',
          },
          locales: ['ar', 'de', 'en', 'ja', 'ru'],
          files: under(LPROJ, [
            'ar.lproj/Localizable.strings',
            'de.lproj/Localizable.strings',
            'en.lproj/Localizable.strings',
            'ja.lproj/Localizable.strings',
            'ru.lproj/Localizable.strings',
          ]),
        },
        {
          fileSet: {
            path: `${LPROJ}/{locale}.lproj/Localizable.stringsdict`,
            format: 'stringsdict',
            namespace: 'Localizable-stringsdict',
          },
          locales: ['ar', 'de', 'en', 'ja', 'ru'],
          files: under(LPROJ, [
            'ar.lproj/Localizable.stringsdict',
            'de.lproj/Localizable.stringsdict',
            'en.lproj/Localizable.stringsdict',
            'ja.lproj/Localizable.stringsdict',
            'ru.lproj/Localizable.stringsdict',
          ]),
        },
      ],
      sourceLocale: 'en',
      targetLocales: ['ar', 'de', 'ja', 'ru'],
      notes: [FOUND_TWO_FILE_SETS],
    },
    config: {
      sourceLocale: 'en',
      files: [
        { path: `${LPROJ}/{locale}.lproj/Localizable.strings`, format: 'strings', namespace: 'Localizable' },
        {
          path: `${LPROJ}/{locale}.lproj/Localizable.stringsdict`,
          format: 'stringsdict',
          namespace: 'Localizable-stringsdict',
        },
      ],
    },
  },
  'apple-xcstrings': {
    proposal: {
      fileSets: [
        {
          fileSet: { path: 'IceCubesApp/Resources/Localization/Localizable.xcstrings', format: 'xcstrings' },
          locales: [
            'be', 'ca', 'de', 'en', 'en-GB', 'es', 'eu', 'fr', 'it', 'ja',
            'ko', 'nb', 'nl', 'pl', 'pt-BR', 'tr', 'uk', 'zh-Hans', 'zh-Hant',
          ], // prettier-ignore
          files: ['IceCubesApp/Resources/Localization/Localizable.xcstrings'],
        },
      ],
      sourceLocale: 'en',
      targetLocales: [
        'be', 'ca', 'de', 'en-GB', 'es', 'eu', 'fr', 'it', 'ja',
        'ko', 'nb', 'nl', 'pl', 'pt-BR', 'tr', 'uk', 'zh-Hans', 'zh-Hant',
      ], // prettier-ignore
      notes: [],
    },
    config: {
      sourceLocale: 'en',
      files: [{ path: 'IceCubesApp/Resources/Localization/Localizable.xcstrings', format: 'xcstrings' }],
    },
  },
  'flutter-arb': {
    proposal: {
      fileSets: [
        {
          fileSet: { path: 'mobile/apps/photos/lib/l10n/intl_{locale}.arb', format: 'arb' },
          locales: ['ar', 'de', 'en', 'ja', 'pl'],
          files: under('mobile/apps/photos/lib/l10n', [
            'intl_ar.arb',
            'intl_de.arb',
            'intl_en.arb',
            'intl_ja.arb',
            'intl_pl.arb',
          ]),
        },
      ],
      sourceLocale: 'en',
      targetLocales: ['ar', 'de', 'ja', 'pl'],
      notes: [],
    },
    config: {
      sourceLocale: 'en',
      files: [{ path: 'mobile/apps/photos/lib/l10n/intl_{locale}.arb', format: 'arb' }],
    },
  },
  gettext: {
    proposal: {
      fileSets: [
        {
          fileSet: { path: 'wagtail/admin/locale/{locale}/LC_MESSAGES/django.po', format: 'po' },
          locales: ['ar', 'de', 'en', 'pl', 'ru'],
          files: ['ar', 'de', 'en', 'pl', 'ru'].map(
            (locale) => `wagtail/admin/locale/${locale}/LC_MESSAGES/django.po`,
          ),
        },
      ],
      sourceLocale: 'en',
      targetLocales: ['ar', 'de', 'pl', 'ru'],
      notes: [],
    },
    config: {
      sourceLocale: 'en',
      files: [{ path: 'wagtail/admin/locale/{locale}/LC_MESSAGES/django.po', format: 'po' }],
    },
  },
  'i18next-namespaces': {
    proposal: {
      fileSets: [
        {
          fileSet: { path: `${HEADLAMP}/{locale}/{namespace}.json`, format: 'i18next' },
          locales: ['ar', 'de', 'en', 'ja', 'pl', 'ru'],
          files: ['ar', 'de', 'en', 'ja', 'pl', 'ru'].flatMap((locale) =>
            under(`${HEADLAMP}/${locale}`, ['app.json', 'glossary.json', 'translation.json']),
          ),
        },
      ],
      sourceLocale: 'en',
      targetLocales: ['ar', 'de', 'ja', 'pl', 'ru'],
      notes: [],
    },
    config: {
      sourceLocale: 'en',
      files: [{ path: `${HEADLAMP}/{locale}/{namespace}.json`, format: 'i18next' }],
    },
  },
  'java-properties': {
    proposal: {
      fileSets: [
        {
          fileSet: {
            path: `${JENKINS}/Messages_{locale}.properties`,
            format: 'properties',
            source: `${JENKINS}/Messages.properties`,
          },
          locales: ['de', 'ja', 'pl', 'ru'],
          files: under(JENKINS, [
            'Messages.properties',
            'Messages_de.properties',
            'Messages_ja.properties',
            'Messages_pl.properties',
            'Messages_ru.properties',
          ]),
        },
      ],
      targetLocales: ['de', 'ja', 'pl', 'ru'],
      notes: [
        `${JENKINS}/Messages.properties names no locale: the source locale is the one --source names (en when not given)`,
      ],
    },
    config: {
      sourceLocale: 'en',
      files: [
        {
          path: `${JENKINS}/Messages_{locale}.properties`,
          format: 'properties',
          source: `${JENKINS}/Messages.properties`,
        },
      ],
    },
  },
  'mastodon-rails': {
    proposal: {
      fileSets: [
        {
          fileSet: { path: 'config/locales/{locale}.yml', format: 'yaml', rails: true },
          locales: ['ar', 'de', 'en', 'ja', 'pl'],
          files: under('config/locales', ['ar.yml', 'de.yml', 'en.yml', 'ja.yml', 'pl.yml']),
        },
      ],
      sourceLocale: 'en',
      targetLocales: ['ar', 'de', 'ja', 'pl'],
      notes: [],
    },
    config: {
      sourceLocale: 'en',
      files: [{ path: 'config/locales/{locale}.yml', format: 'yaml', rails: true }],
    },
  },
  'mastodon-web': {
    proposal: {
      fileSets: [
        {
          fileSet: { path: 'app/javascript/mastodon/locales/{locale}.json', format: 'json' },
          locales: ['ar', 'de', 'en', 'ja', 'pl'],
          files: under('app/javascript/mastodon/locales', [
            'ar.json',
            'de.json',
            'en.json',
            'ja.json',
            'pl.json',
          ]),
        },
      ],
      sourceLocale: 'en',
      targetLocales: ['ar', 'de', 'ja', 'pl'],
      notes: [],
    },
    // One plain JSON file per locale: tolk.json's one-pattern form.
    config: { sourceLocale: 'en', files: 'app/javascript/mastodon/locales/{locale}.json' },
  },
  xliff: {
    proposal: {
      fileSets: [
        {
          fileSet: {
            path: 'apps/client/src/locales/messages.{locale}.xlf',
            format: 'xliff',
            source: 'apps/client/src/locales/messages.xlf',
          },
          locales: ['de', 'ja', 'pl', 'uk'],
          files: under('apps/client/src/locales', [
            'messages.de.xlf',
            'messages.ja.xlf',
            'messages.pl.xlf',
            'messages.uk.xlf',
            'messages.xlf',
          ]),
        },
      ],
      // messages.xlf's <file source-language="en">.
      sourceLocale: 'en',
      targetLocales: ['de', 'ja', 'pl', 'uk'],
      notes: [],
    },
    config: {
      sourceLocale: 'en',
      files: [
        {
          path: 'apps/client/src/locales/messages.{locale}.xlf',
          format: 'xliff',
          source: 'apps/client/src/locales/messages.xlf',
        },
      ],
    },
  },
};

const present = realAppsPresent();

describe.skipIf(!present)('detectLayout on real apps', () => {
  it.each(REAL_APPS)('when the app is %s, then its file sets, source and target locales', async (app) => {
    expect(await detectLayout(realApp(app))).toEqual(EXPECTED[app].proposal);
  });

  it('when a Rails app has its JS front end beside it (Mastodon), then both file sets, each a namespace', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tolk-mastodon-'));
    try {
      await copyRealApp('mastodon-rails', root);
      await copyRealApp('mastodon-web', root);
      const proposal = await detectLayout(root);
      expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
        { path: 'app/javascript/mastodon/locales/{locale}.json', format: 'json', namespace: 'mastodon' },
        { path: 'config/locales/{locale}.yml', format: 'yaml', rails: true, namespace: 'rails' },
      ]);
      expect(proposal.sourceLocale).toBe('en');
      expect(proposal.targetLocales).toEqual(['ar', 'de', 'ja', 'pl']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('when an Android app and an iOS app are in one repository, then the file sets of both, each a namespace', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tolk-mobile-'));
    try {
      await copyRealApp('android', join(root, 'android'));
      await copyRealApp('apple-strings', join(root, 'ios'));
      const proposal = await detectLayout(root);
      expect(proposal.fileSets.map((set) => set.fileSet)).toEqual([
        {
          path: 'android/app/src/main/res/values-{locale}/strings.xml',
          format: 'android',
          source: 'android/app/src/main/res/values/strings.xml',
          namespace: 'android-app',
        },
        {
          path: `ios/${LPROJ}/{locale}.lproj/Localizable.strings`,
          format: 'strings',
          namespace: 'Localizable',
        },
        {
          path: `ios/${LPROJ}/{locale}.lproj/Localizable.stringsdict`,
          format: 'stringsdict',
          namespace: 'Localizable-stringsdict',
        },
      ]);
      // The iOS app's en.lproj says English; Android's values/ names none.
      expect(proposal.sourceLocale).toBe('en');
      expect(proposal.targetLocales).toEqual(['ar', 'de', 'ja', 'pl', 'ru', 'zh-CN']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!present)('tolk init --yes on real apps', () => {
  let system: System;
  let token: string;

  beforeAll(async () => {
    system = await startSystem({ sources: true });
    token = (await system.signUp()).token;
  });
  afterAll(async () => {
    await system?.close();
  });

  it.each(REAL_APPS)(
    'when the app is %s, then tolk.json names its files and every locale it has is a target',
    async (app) => {
      const cli = await createCliHarness(system.base);
      try {
        await copyRealApp(app, cli.cwd);
        const result = await cli.tolk(['init', '--name', app, '--yes'], { env: { TOLK_TOKEN: token } });
        expect(result.code, result.stderr).toBe(0);
        const { config, proposal } = EXPECTED[app];
        expect(await cli.readJson('tolk.json')).toEqual({
          apiUrl: system.base,
          projectId: expect.any(String),
          sourceLocale: config.sourceLocale,
          targetLocales: proposal.targetLocales,
          files: config.files,
        });
        const { projectId } = await cli.readJson('tolk.json');
        const locales = await system.call('GET', `/v1/projects/${projectId}/locales`, token);
        expect(locales.body.locales.map((l: { locale: string }) => l.locale).sort()).toEqual(
          proposal.targetLocales,
        );
      } finally {
        await cli.remove();
      }
    },
  );
});
