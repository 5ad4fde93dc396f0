/**
 * Real open-source apps' own locale files (../shared/corpus/real-apps), adopted as a new user
 * adopts an app (issue 26, DESIGN §15): `tolk init --yes`, `push`, `translate` (the model
 * stand-in), `pull` and `check`, with no flag beyond those, against the running system. The
 * layout init finds; every locale's translations imported by the first push; nothing refused;
 * every locale complete after translate; the findings the apps really have, each at its file and
 * line; every file pulled read by its platform's own tool; and in the target files the apps had,
 * only the entries written changed: the lines of the others stay, and so do comments, blank lines
 * and the file's own lines (DESIGN §16).
 *
 * The ten apps are shared by two test files that run side by side, each in a process of its own
 * with a system of its own: cli/test/real-apps-adoption-string-catalog.test.ts (Ice Cubes' String
 * Catalog, as long as the nine others together) and cli/test/real-apps-adoption.test.ts.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { IntlMessageFormat } from 'intl-messageformat';
import i18next from 'i18next';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  adoptRealApp,
  flatEntries,
  inPool,
  linesRemovedOutsideEntries,
  type AdoptedApp,
  type CheckFinding,
} from './adopt-real-app.js';
import { systemWithModel } from './file-set-project.js';
import {
  aapt2Compile,
  msgfmtCheck,
  needTools,
  plistutilRoundTrip,
  prop2poProperties,
  prop2poStrings,
  pyyamlLoad,
  xliff2po,
  xmllint,
  type Tool,
} from './platform-tools.js';
import { realApp, type RealApp } from './real-apps.js';
import { valueLines } from '../../src/check/value-lines.js';
import { loadProjectConfig } from '../../src/config/project-config.js';
import { readLocaleFile } from '../../src/files/file-sets.js';
import { namespaceFiles, type NamespaceFile } from '../../src/files/namespace-files.js';

const LPROJ = 'MastodonSDK/Sources/MastodonLocalization/Resources';
const HEADLAMP = 'frontend/src/i18n/locales';
const JENKINS = 'core/src/main/resources/hudson/model';
export const RES = 'app/src/main/res';
export const XCSTRINGS = 'IceCubesApp/Resources/Localization/Localizable.xcstrings';

type Expected = {
  /** tolk.json's `files` as init writes it, and the target locales it proposes. */
  files: unknown;
  targets: string[];
  /** The platform tools the files written are read with. */
  tools: Tool[];
  /** Reads every target file pulled with the platform's own tool. */
  read(app: AdoptedApp): Promise<void> | void;
};

/** The locale of a target path: `pl` of `values-pl`, `pt-BR` of `pt_BR`. */
export const targetPaths = (app: AdoptedApp, path: (locale: string) => string) =>
  app.config.targetLocales.map((locale) => ({
    locale,
    path: path(locale),
    absolute: app.path(path(locale)),
  }));

/** Keys of a flat JSON message file whose ICU message FormatJS (react-intl, Flutter's intl) refuses. */
export function refusedMessages(messages: Record<string, unknown>, locale: string): string[] {
  return Object.entries(messages).flatMap(([key, message]) => {
    if (key.startsWith('@') || typeof message !== 'string') return [];
    try {
      new IntlMessageFormat(message, locale, undefined, { ignoreTag: true });
      return [];
    } catch {
      return [key];
    }
  });
}

/** Error findings of `check` for the locale: each key a platform tool refuses must be one. */
const errorKeys = (app: AdoptedApp, locale: string) =>
  new Set(
    app.findings
      .filter((finding) => finding.locale === locale && finding.severity === 'error')
      .map((finding) => finding.key),
  );

const EXPECTED: Record<RealApp, Expected> = {
  android: {
    files: [
      { path: `${RES}/values-{locale}/strings.xml`, format: 'android', source: `${RES}/values/strings.xml` },
    ],
    targets: ['ar', 'de', 'pl', 'ru', 'zh-CN'],
    tools: ['aapt2', 'xmllint'],
    read(app) {
      for (const { path, absolute } of targetPaths(
        app,
        (locale) => `${RES}/values-${locale === 'zh-CN' ? 'zh-rCN' : locale}/strings.xml`,
      )) {
        expect(xmllint(absolute), path).toMatchObject({ status: 0 });
        expect(aapt2Compile(absolute).compile, path).toMatchObject({ status: 0 });
      }
    },
  },
  'apple-strings': {
    files: [
      { path: `${LPROJ}/{locale}.lproj/Localizable.strings`, format: 'strings', namespace: 'Localizable' },
      {
        path: `${LPROJ}/{locale}.lproj/Localizable.stringsdict`,
        format: 'stringsdict',
        namespace: 'Localizable-stringsdict',
      },
    ],
    targets: ['ar', 'de', 'ja', 'ru'],
    tools: ['plistutil', 'prop2po', 'translate-toolkit'],
    read(app) {
      const strings = targetPaths(app, (locale) => `${LPROJ}/${locale}.lproj/Localizable.strings`);
      const [source, ...targets] = prop2poStrings([
        app.path(`${LPROJ}/en.lproj/Localizable.strings`),
        ...strings.map((file) => file.absolute),
      ]);
      for (const [index, units] of targets.entries()) {
        expect(Object.keys(units).sort(), strings[index]!.path).toEqual(Object.keys(source!).sort());
      }
      for (const { locale } of strings) {
        const xml = plistutilRoundTrip(app.path(`${LPROJ}/${locale}.lproj/Localizable.stringsdict`));
        expect(xml).toContain('NSStringPluralRuleType');
      }
    },
  },
  'apple-xcstrings': {
    files: [{ path: XCSTRINGS, format: 'xcstrings' }],
    targets: [
      'be',
      'ca',
      'de',
      'en-GB',
      'es',
      'eu',
      'fr',
      'it',
      'ja',
      'ko',
      'nb',
      'nl',
      'pl',
      'pt-BR',
      'tr',
      'uk',
      'zh-Hans',
      'zh-Hant',
    ],
    tools: [],
    // No Apple tool runs here: the catalog is JSON (Xcode reads it with Foundation's JSON reader),
    // and each locale has a localization of every string the server holds.
    async read(app) {
      const catalog = JSON.parse(await readFile(app.path(XCSTRINGS), 'utf8')) as {
        sourceLanguage: string;
        strings: Record<string, { localizations?: Record<string, unknown> }>;
      };
      expect(catalog.sourceLanguage).toBe('en');
      for (const locale of app.config.targetLocales) {
        const localized = Object.values(catalog.strings).filter((string) => string.localizations?.[locale]);
        const keys = app.afterTranslate.find((entry) => entry.locale === locale)!.keyCount;
        expect(localized.length, locale).toBeGreaterThanOrEqual(keys);
      }
    },
  },
  'flutter-arb': {
    files: [{ path: 'mobile/apps/photos/lib/l10n/intl_{locale}.arb', format: 'arb' }],
    targets: ['ar', 'de', 'ja', 'pl'],
    tools: [],
    // Flutter's gen-l10n reads ARB messages as ICU (the intl package's parser; FormatJS here):
    // every message it would refuse is one `check` calls an error.
    async read(app) {
      for (const { locale, path, absolute } of targetPaths(
        app,
        (locale) => `mobile/apps/photos/lib/l10n/intl_${locale}.arb`,
      )) {
        const messages = JSON.parse(await readFile(absolute, 'utf8')) as Record<string, unknown>;
        const errors = errorKeys(app, locale);
        for (const key of refusedMessages(messages, locale))
          expect(errors.has(key), `${path}: ${key}`).toBe(true);
      }
    },
  },
  gettext: {
    files: [{ path: 'wagtail/admin/locale/{locale}/LC_MESSAGES/django.po', format: 'po' }],
    targets: ['ar', 'de', 'pl', 'ru'],
    tools: ['msgfmt'],
    // msgfmt finds nothing in a pulled catalog that it did not find in the app's own (Wagtail's
    // Russian one forms lack %(counter)s, as its translators wrote them).
    read(app) {
      const complaints = (file: string) =>
        msgfmtCheck(file)
          .stderr.split('\n')
          .filter((line) => line.includes(': ') && !line.startsWith('msgfmt:'))
          .map((line) => line.replace(/^[^:]*:\d+: /, ''))
          .sort();
      for (const { path, absolute } of targetPaths(
        app,
        (locale) => `wagtail/admin/locale/${locale}/LC_MESSAGES/django.po`,
      )) {
        const before = complaints(`${realApp('gettext')}/${path}`);
        const added = complaints(absolute).filter((complaint) => {
          const at = before.indexOf(complaint);
          if (at === -1) return true;
          before.splice(at, 1);
          return false;
        });
        expect(added, path).toEqual([]);
      }
    },
  },
  'i18next-namespaces': {
    files: [{ path: `${HEADLAMP}/{locale}/{namespace}.json`, format: 'i18next' }],
    targets: ['ar', 'de', 'ja', 'pl', 'ru'],
    tools: [],
    // i18next itself, set up as Headlamp sets it up, finds every key of every namespace.
    async read(app) {
      const namespaces = ['app', 'glossary', 'translation'];
      const load = async (locale: string) =>
        Object.fromEntries(
          await Promise.all(
            namespaces.map(async (ns) => [
              ns,
              JSON.parse(await readFile(app.path(`${HEADLAMP}/${locale}/${ns}.json`), 'utf8')) as object,
            ]),
          ),
        ) as Record<string, Record<string, string>>;
      const source = await load('en');
      for (const locale of app.config.targetLocales) {
        const instance = i18next.createInstance();
        await instance.init({
          lng: locale,
          fallbackLng: false,
          ns: namespaces,
          resources: { [locale]: await load(locale) },
          keySeparator: false,
          nsSeparator: '|',
          contextSeparator: '//context:',
          returnEmptyString: false,
          interpolation: { escapeValue: false },
        });
        for (const ns of namespaces) {
          const lost = Object.keys(source[ns]!)
            .map((key) => key.replace(/_(one|other)$/, ''))
            .filter((key) => !instance.exists(key, { ns, count: 2 }) && !instance.exists(key, { ns }));
          expect(lost, `${locale}/${ns}.json`).toEqual([]);
        }
      }
    },
  },
  'java-properties': {
    files: [
      {
        path: `${JENKINS}/Messages_{locale}.properties`,
        format: 'properties',
        source: `${JENKINS}/Messages.properties`,
      },
    ],
    targets: ['de', 'ja', 'pl', 'ru'],
    tools: ['prop2po', 'translate-toolkit'],
    // Every key of the source, and the keys the app's own files had that the source lacks (Jenkins'
    // Japanese file keeps a few gone from Messages.properties): Tolk never synced them, so they stay.
    read(app) {
      const files = targetPaths(app, (locale) => `${JENKINS}/Messages_${locale}.properties`);
      const [source, ...units] = prop2poProperties([
        app.path(`${JENKINS}/Messages.properties`),
        ...files.map((file) => file.absolute),
        ...files.map((file) => `${realApp('java-properties')}/${file.path}`),
      ]);
      const targets = units.slice(0, files.length);
      const originals = units.slice(files.length);
      for (const [index, target] of targets.entries()) {
        const own = Object.keys(originals[index]!).filter((key) => !(key in source!));
        expect(Object.keys(target).sort(), files[index]!.path).toEqual(
          [...Object.keys(source!), ...own].sort(),
        );
      }
    },
  },
  'mastodon-rails': {
    files: [{ path: 'config/locales/{locale}.yml', format: 'yaml', rails: true }],
    targets: ['ar', 'de', 'ja', 'pl'],
    tools: [],
    // Rails reads its locale files with Psych, a YAML 1.1 reader as PyYAML is.
    read(app) {
      const files = targetPaths(app, (locale) => `config/locales/${locale}.yml`);
      const documents = pyyamlLoad(files.map((file) => file.absolute));
      for (const [index, document] of documents.entries()) {
        expect(Object.keys(document as object), files[index]!.path).toEqual([files[index]!.locale]);
      }
    },
  },
  'mastodon-web': {
    files: 'app/javascript/mastodon/locales/{locale}.json',
    targets: ['ar', 'de', 'ja', 'pl'],
    tools: [],
    // react-intl reads its messages with FormatJS: each it would refuse is one `check` calls an error.
    async read(app) {
      for (const { locale, path, absolute } of targetPaths(
        app,
        (locale) => `app/javascript/mastodon/locales/${locale}.json`,
      )) {
        const messages = JSON.parse(await readFile(absolute, 'utf8')) as Record<string, unknown>;
        const errors = errorKeys(app, locale);
        for (const key of refusedMessages(messages, locale))
          expect(errors.has(key), `${path}: ${key}`).toBe(true);
      }
    },
  },
  xliff: {
    files: [
      {
        path: 'apps/client/src/locales/messages.{locale}.xlf',
        format: 'xliff',
        source: 'apps/client/src/locales/messages.xlf',
      },
    ],
    targets: ['de', 'ja', 'pl', 'uk'],
    tools: ['xmllint', 'xliff2po', 'translate-toolkit'],
    read(app) {
      for (const { path, absolute } of targetPaths(
        app,
        (locale) => `apps/client/src/locales/messages.${locale}.xlf`,
      )) {
        expect(xmllint(absolute), path).toMatchObject({ status: 0, stderr: '' });
        const units = Object.entries(xliff2po(absolute));
        expect(units.length, path).toBeGreaterThan(800);
        expect(
          units.filter(([, unit]) => unit.msgstr === '').map(([id]) => id),
          path,
        ).toEqual([]);
      }
    },
  },
};
/**
 * Each of the two files is meant to take under two minutes on a quiet two-core machine (they run
 * side by side after the timed files, with nothing else of the run beside them); the hook waits
 * longer, so that a busy machine reports what the apps did rather than a timeout. The afterAll
 * prints each app's seconds per command.
 */
const HOOK_TIMEOUT_MS = 560_000;

/**
 * The first day of each of `apps`, in the describe block it is called in: one system, the apps
 * adopted two at a time, in the order given, before the tests, which look at what each command
 * did. Returns the adopted app, for the tests of one app's own findings.
 */
export function realAppsFirstDay(apps: readonly RealApp[]): (app: RealApp) => AdoptedApp {
  const world = systemWithModel();
  const adopted = new Map<RealApp, AdoptedApp>();
  const started = performance.now();

  beforeAll(async () => {
    await inPool(apps, 2, async (app) => {
      adopted.set(app, await adoptRealApp(app, world.system, world.model));
    });
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    // What each app took, for keeping the files short.
    const lines = [...adopted.values()].map(
      ({ app, seconds }) =>
        `${app}: ${Object.entries(seconds)
          .map(([step, s]) => `${step} ${s.toFixed(1)} s`)
          .join(', ')}`,
    );
    console.info(`${lines.join('\n')}\nall apps: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await Promise.all([...adopted.values()].map((app) => app.cli.remove()));
  });
  const of = (app: RealApp) => adopted.get(app)!;

  it.each(apps)('when %s is initialized with --yes, then init finds its layout and its locales', (app) => {
    const { runs, config } = of(app);
    expect(runs.init.code, runs.init.stderr).toBe(0);
    expect(config.files).toEqual(EXPECTED[app].files);
    expect(config.sourceLocale).toBe('en');
    expect(config.targetLocales).toEqual(EXPECTED[app].targets);
  });

  it.each(apps)("when %s is pushed the first time, then every locale's translations are imported", (app) => {
    const { runs, afterPush } = of(app);
    expect(runs.push.code, runs.push.stderr).toBe(0);
    expect(afterPush.map((locale) => locale.locale).sort()).toEqual([...EXPECTED[app].targets].sort());
    const notImported = afterPush.filter((locale) => locale.translatedCount === 0).map((l) => l.locale);
    expect(notImported, runs.push.stdout).toEqual([]);
  });

  it.each(apps)('when %s is translated and pulled, then nothing is refused', (app) => {
    const { runs } = of(app);
    expect(runs.translate.code, runs.translate.stderr).toBe(0);
    expect(runs.pull.code, runs.pull.stderr).toBe(0);
  });

  it.each(apps)(
    'when %s is translated and pulled a second time, then nothing is left to do and no file changes, not even its time',
    (app) => {
      const { again, changedByRerun } = of(app);
      expect(again.translate.code, again.translate.stderr).toBe(0);
      expect(again.pull.code, again.pull.stderr).toBe(0);
      expect(changedByRerun).toEqual([]);
    },
  );

  it.each(apps)(
    "when %s's existing target files are written, then every line holding an untouched key stays, in its order",
    async (app) => {
      const adopted = of(app);
      const project = await loadProjectConfig(adopted.cli.cwd);
      const files = await namespaceFiles(project, adopted.cli.cwd);
      let compared = 0;
      for (const file of files) {
        for (const locale of adopted.config.targetLocales) {
          const path = file.pathOf(locale);
          const shownPath = relative(adopted.cli.cwd, path);
          const original = `${realApp(app)}/${shownPath}`;
          if (!existsSync(original)) continue;
          const before = await readLocaleFile(file, locale, original, realApp(app));
          const after = await readLocaleFile(file, locale, path, adopted.cli.cwd);
          if (before.status !== 'read' || after.status !== 'read') continue;
          const valuesAfter = new Map(after.parsed.keys.map((key, at) => [key, after.parsed.values[at]]));
          const untouched = before.parsed.keys.filter(
            (key, at) => valuesAfter.get(key) === before.parsed.values[at],
          );
          const format = file.set.format.name;
          const options = { locale, rails: file.set.options.rails === true };
          const text = before.bytes.toString('utf8');
          const lines = valueLines(text, format, options);
          // A JSON member gains a comma when a key is added after it; a line with an error of the
          // file (text aapt2 refuses beside an element) loses that error.
          const json = ['json', 'i18next', 'arb'].includes(format);
          const same = (line: string) => (json ? line.replace(/,\s*$/, '') : line);
          const broken = new Set(
            before.findings.filter((finding) => finding.severity === 'error').map((finding) => finding.line),
          );
          const beforeLines = text.split(/\r?\n/);
          // The lines of untouched keys, in the file's order: each found again, in the same order.
          const kept = [...new Set(untouched.filter((key) => lines.has(key)).map((key) => lines.lineOf(key)))]
            .filter((line) => !broken.has(line))
            .sort((a, b) => a - b)
            .map((line) => same(beforeLines[line - 1]!));
          const afterLines = after.bytes.toString('utf8').split(/\r?\n/).map(same);
          let at = 0;
          for (const line of afterLines) if (line === kept[at]) at++;
          expect(kept[at], `${shownPath}: the line of an untouched key is gone or moved`).toBeUndefined();
          compared += kept.length;
        }
      }
      expect(compared, 'lines of untouched keys compared').toBeGreaterThan(0);
    },
  );

  it.each(apps)(
    "when %s's existing target files are written, then no line outside the entries written is removed: comments, blank lines and the file's own lines stay",
    async (app) => {
      const adopted = of(app);
      const project = await loadProjectConfig(adopted.cli.cwd);
      // Each target file that the app had, and the locales it holds (a String Catalog: all of them).
      const targets = new Map<string, { file: NamespaceFile; locales: string[] }>();
      for (const file of await namespaceFiles(project, adopted.cli.cwd)) {
        for (const locale of adopted.config.targetLocales) {
          const path = file.pathOf(locale);
          if (!existsSync(`${realApp(app)}/${relative(adopted.cli.cwd, path)}`)) continue;
          const target = targets.get(path) ?? targets.set(path, { file, locales: [] }).get(path)!;
          target.locales.push(locale);
        }
      }
      expect(targets.size, 'target files the app had').toBeGreaterThan(0);
      for (const [path, { file, locales }] of targets) {
        const shownPath = relative(adopted.cli.cwd, path);
        const { format, options } = file.set;
        const json = ['json', 'i18next', 'arb', 'xcstrings'].includes(format.name);
        const read = (text: string) => {
          // A JSON file with one change applied alone may lack a comma its neighbour's change gives.
          const bytes = Buffer.from(
            json ? JSON.stringify(parseJsonc(text, [], { allowTrailingComma: true })) : text,
          );
          const entries = new Map<string, string>();
          try {
            for (const locale of locales)
              flatEntries(locale, format.read({ bytes, locale, path: shownPath, options }), entries);
          } catch {
            return undefined;
          }
          return entries;
        };
        const outside = linesRemovedOutsideEntries({
          before: await readFile(`${realApp(app)}/${shownPath}`, 'utf8'),
          after: await readFile(path, 'utf8'),
          json,
          read,
        });
        expect(outside, `${shownPath}: lines removed outside the entries written`).toEqual([]);
      }
    },
  );

  it.each(apps)('when %s is translated, then every locale is complete', (app) => {
    const incomplete = of(app)
      .afterTranslate.filter((locale) => locale.missingCount !== 0)
      .map((locale) => `${locale.locale}: ${locale.missingCount} missing`);
    expect(incomplete).toEqual([]);
  });

  it.each(apps)(
    'when %s is checked, then it exits 0 or 1, never 2, and names each finding at its file and line',
    (app) => {
      const { runs, findings } = of(app);
      expect([0, 1], runs.check.stderr).toContain(runs.check.code);
      const unplaced = findings.filter(
        (finding: CheckFinding) => !finding.file || !(finding.line >= 1) || finding.file.startsWith('/'),
      );
      expect(unplaced).toEqual([]);
      expect(findings.filter((finding) => finding.kind === 'unreadable')).toEqual([]);
    },
  );

  it.for(apps)(
    "when %s's files are pulled, then the platform's own tool reads each",
    async (app, context) => {
      needTools(context, ...EXPECTED[app].tools);
      await EXPECTED[app].read(of(app));
    },
  );

  return of;
}
