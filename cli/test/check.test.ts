/**
 * `tolk check` (DESIGN §14), end to end through the CLI against the real system: local target
 * files with every kind of problem, each reported at its file and line in every output format
 * (people, --json, GitHub workflow commands, GitLab Code Quality), exit 1; a clean project exits
 * 0; usage, auth and network failures exit 2, 3 and 4. No model is involved.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';

const SOURCE_V1 = {
  title: 'Welcome to Tolk',
  greeting: 'Hello {{name}}, welcome back',
  save: '<b>Save</b> your changes',
  link: '<i>Read</i> the <b>docs</b>',
  cart: 'Add to cart',
  items_one: 'One item',
  items_other: '{{count}} items',
  button: 'Continue shopping now',
  brand: 'Tolk Cloud Platform',
  ok: 'OK',
  files: '{count, plural, one {# file} other {# files}}',
  footer: 'Made with care',
  'Sale: 50%, today\nonly': 'Sale: 50% off, today only',
  bye: 'Goodbye',
};
/** Pushed as version 2: `bye` changed, so its German translation on the server is outdated. */
const SOURCE_V2 = { ...SOURCE_V1, bye: 'Goodbye and see you soon' };
/** On disk, not pushed: `title` changed since the last push. */
const SOURCE_LOCAL = { ...SOURCE_V2, title: 'Welcome to Tolk Cloud' };

const ARB_SOURCE = {
  '@@locale': 'en',
  saveLabel: 'Save changes',
  '@saveLabel': { description: 'a button', maxLength: 10 },
  welcome: 'Welcome, {name}',
  '@welcome': { placeholders: { name: {} } },
};

/** The German shop,main.json, one problem a line (the line numbers are what the checks must say). */
const DE_COMMON = [
  '{',
  '  "title": "Willkommen bei Tolk",',
  '  "greeting": "Hallo, willkommen zurück",',
  '  "save": "<b>Speichern Sie Ihre Änderungen",',
  '  "link": "<i>Lies</i> die <b>Doku</i></b>",',
  '  "cart": "In den Einkaufswagen",',
  '  "items_one": "Ein Artikel",',
  '  "items_other": "{{count}} Artikel",',
  '  "items_few": "{{count}} Artikel",',
  '  "button": "Continue shopping now",',
  '  "brand": "Tolk Cloud Platform",',
  '  "ok": "OK",',
  '  "files": "{count, plural, one {# Datei} other {# Dateien}",',
  '  "checkout": "Zur Kasse",',
  '  "bye": "Auf Wiedersehen"',
  '}',
  '',
].join('\n');

const DE_ARB = [
  '{',
  '  "@@locale": "de",',
  '  "saveLabel": "Änderungen speichern",',
  '  "welcome": "Willkommen, {nme}"',
  '}',
  '',
].join('\n');

/** The ARB file's German, with nothing to find. */
const RIGHT_DE_ARB = { '@@locale': 'de', saveLabel: 'Speichern', welcome: 'Hallo, {name}' };

type Expected = { file: string; line: number; locale: string; key: string | null; kind: string };
type Finding = Expected & { severity: string; message: string };

const COMMON_DE = 'locales/de/shop,main.json';
const ARB_DE = 'l10n/app_de.arb';
const EXPECTED: Expected[] = [
  { file: ARB_DE, line: 3, locale: 'de', key: 'app.saveLabel', kind: 'max-length' },
  { file: ARB_DE, line: 4, locale: 'de', key: 'app.welcome', kind: 'placeholder' },
  { file: 'l10n/app_pl.arb', line: 1, locale: 'pl', key: null, kind: 'missing' },
  { file: COMMON_DE, line: 1, locale: 'de', key: 'shop,main.Sale: 50%, today\nonly', kind: 'missing' },
  { file: COMMON_DE, line: 1, locale: 'de', key: 'shop,main.footer', kind: 'missing' },
  { file: COMMON_DE, line: 2, locale: 'de', key: 'shop,main.title', kind: 'outdated' },
  { file: COMMON_DE, line: 3, locale: 'de', key: 'shop,main.greeting', kind: 'placeholder' },
  { file: COMMON_DE, line: 4, locale: 'de', key: 'shop,main.save', kind: 'markup' },
  { file: COMMON_DE, line: 5, locale: 'de', key: 'shop,main.link', kind: 'markup' },
  { file: COMMON_DE, line: 6, locale: 'de', key: 'shop,main.cart', kind: 'glossary' },
  { file: COMMON_DE, line: 9, locale: 'de', key: 'shop,main.items_few', kind: 'plural' },
  { file: COMMON_DE, line: 10, locale: 'de', key: 'shop,main.button', kind: 'copy' },
  { file: COMMON_DE, line: 12, locale: 'de', key: 'shop,main.ok', kind: 'copy' },
  { file: COMMON_DE, line: 13, locale: 'de', key: 'shop,main.files', kind: 'icu' },
  { file: COMMON_DE, line: 14, locale: 'de', key: 'shop,main.checkout', kind: 'extra' },
  { file: COMMON_DE, line: 15, locale: 'de', key: 'shop,main.bye', kind: 'outdated' },
  { file: 'locales/pl/shop,main.json', line: 1, locale: 'pl', key: null, kind: 'missing' },
];

/** The GitLab Code Quality report's shape (docs.gitlab.com, "Code Quality report format"). */
const codeQualityReport = z.array(
  z.strictObject({
    description: z.string().min(1),
    check_name: z.string().min(1),
    fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
    severity: z.enum(['info', 'minor', 'major', 'critical', 'blocker']),
    location: z.strictObject({
      path: z.string().min(1),
      lines: z.strictObject({ begin: z.number().int().positive() }),
    }),
  }),
);

/** Reverses GitHub's escaping of workflow command data (`%25`, `%0D`, `%0A`) and properties (`%3A`, `%2C`). */
function unescapeGithub(text: string): string {
  return text
    .replaceAll('%0D', '\r')
    .replaceAll('%0A', '\n')
    .replaceAll('%3A', ':')
    .replaceAll('%2C', ',')
    .replaceAll('%25', '%');
}

const GITHUB_COMMAND = /^::(error|warning) file=([^,:]*),line=(\d+),title=([^,:]*)::(.*)$/;

function parseGithub(stdout: string) {
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => {
      const match = GITHUB_COMMAND.exec(line);
      expect(match, line).not.toBeNull();
      const [, severity, file, lineNumber, title, message] = match!;
      return {
        severity: severity!,
        file: unescapeGithub(file!),
        line: Number(lineNumber),
        title: unescapeGithub(title!),
        message: unescapeGithub(message!),
      };
    });
}

describe('tolk check', () => {
  let system: System;
  let token: string;
  const harnesses: CliHarness[] = [];

  beforeAll(async () => {
    system = await startSystem({ sources: true });
    token = (await system.signUp()).token;
  });
  afterAll(async () => {
    await Promise.all(harnesses.map((cli) => cli.remove()));
    await system?.close();
  });

  /** A project with an i18next set (namespace `common`) and an ARB file (namespace `app`). */
  async function project(targets: string) {
    const cli = await createCliHarness(system.base);
    harnesses.push(cli);
    const tolk = (...args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
    const init = await tolk('init', '--name', 'Check', '--targets', targets, '--yes', '--json');
    expect(init.code, init.stderr).toBe(0);
    const projectId = init.json().projectId as string;
    const config = await cli.readJson('tolk.json');
    await cli.writeJson('tolk.json', {
      ...config,
      files: [
        { path: 'locales/{locale}/{namespace}.json', format: 'i18next' },
        { path: 'l10n/app_{locale}.arb', format: 'arb', namespace: 'app' },
      ],
    });
    await cli.writeJson('l10n/app_en.arb', ARB_SOURCE);
    return { cli, tolk, projectId };
  }

  describe('when the target files have every kind of problem', () => {
    let cli: CliHarness;
    let tolk: (...args: string[]) => ReturnType<CliHarness['tolk']>;

    beforeAll(async () => {
      let projectId: string;
      ({ cli, tolk, projectId } = await project('de,pl'));
      const call = (method: string, path: string, body: unknown) =>
        system.call(method, `/v1/projects/${projectId}${path}`, token, body);
      const glossary = await call('PUT', '/glossary', {
        entries: [{ term: 'cart', caseSensitive: false, keepAsIs: false, translations: { de: 'Warenkorb' } }],
      });
      expect(glossary.status, JSON.stringify(glossary.body)).toBe(200);
      const rules = await call('PATCH', '', {
        settings: { keyRules: { humanOnly: [], neverTranslate: ['shop,main.brand'], exclude: [] } },
      });
      expect(rules.status, JSON.stringify(rules.body)).toBe(200);

      await cli.writeJson('locales/en/shop,main.json', SOURCE_V1);
      expect((await tolk('push')).code).toBe(0);
      const upload = await call('PUT', '/locales/de/translations?sourceVersion=1', {
        'shop,main': { bye: 'Auf Wiedersehen' },
      });
      expect(upload.status, JSON.stringify(upload.body)).toBe(200);
      await cli.writeJson('locales/en/shop,main.json', SOURCE_V2);
      expect((await tolk('push')).code).toBe(0);

      await cli.writeJson('locales/en/shop,main.json', SOURCE_LOCAL);
      await mkdir(join(cli.cwd, 'locales/de'), { recursive: true });
      await writeFile(join(cli.cwd, COMMON_DE), DE_COMMON);
      await writeFile(join(cli.cwd, ARB_DE), DE_ARB);
    });

    it('when run with --json, then each problem is one finding at its file and line, and the exit is 1', async () => {
      const result = await tolk('check', '--json');
      expect(result.code, result.stderr).toBe(1);
      const document = result.json();
      expect(document).toMatchObject({ ok: false, sourceVersion: 2, locales: ['de', 'pl'] });
      const placed = document.findings.map(({ file, line, locale, key, kind }: Expected) => ({
        file,
        line,
        locale,
        key,
        kind,
      }));
      expect(placed).toEqual(EXPECTED);
      const byKey = (key: string) => document.findings.find((finding: Expected) => finding.key === key);
      expect(byKey('shop,main.greeting').message).toBe('placeholders differ from the source: lost {{name}}');
      expect(byKey('shop,main.save').message).toBe('tags differ from the source: lost </b>');
      expect(byKey('shop,main.link').message).toBe('unbalanced markup: </i> closes <b>');
      expect(byKey('shop,main.cart').message).toContain('"cart" must be "Warenkorb"');
      expect(byKey('shop,main.items_few').message).toContain('de does not use (de: one, other)');
      expect(byKey('app.saveLabel').message).toBe('20 characters, more than its maxLength of 10');
      expect(byKey('shop,main.files').message).toContain('does not parse as an ICU message');
      expect(byKey('shop,main.title').message).toContain('changed since the last `tolk push`');
      expect(byKey('shop,main.bye').message).toContain('the server has it outdated');
      expect(byKey('shop,main.button')).toMatchObject({ severity: 'warning' });
      // DESIGN §15: what the runtime tolerates or a person may intend is a warning.
      expect(byKey('shop,main.ok')).toMatchObject({ severity: 'warning' });
      expect(byKey('shop,main.items_few')).toMatchObject({ severity: 'warning' });
      expect(byKey('app.saveLabel')).toMatchObject({ severity: 'warning' });
      expect(byKey('shop,main.files')).toMatchObject({ severity: 'error' });
      expect(byKey('shop,main.footer')).toMatchObject({ severity: 'error', message: 'no translation' });
      expect(byKey('shop,main.checkout')).toMatchObject({ severity: 'warning' });
      expect(byKey('shop,main.checkout').message).toContain('not a key of the source');
      expect(document.counts).toEqual({
        errors: 9,
        warnings: 8,
        byKind: {
          missing: 4,
          outdated: 2,
          placeholder: 2,
          icu: 1,
          plural: 1,
          markup: 2,
          glossary: 1,
          'max-length': 1,
          copy: 2,
          extra: 1,
        },
      });
    });

    it('when run for people, then the findings are grouped by file with their lines and a summary', async () => {
      const result = await tolk('check');
      expect(result.code).toBe(1);
      const blocks = result.stdout.trimEnd().split('\n\n');
      const files = blocks.slice(0, -1).map((block) => block.split('\n'));
      expect(files.map((lines) => lines[0])).toEqual([
        'l10n/app_de.arb (de)',
        'l10n/app_pl.arb (pl)',
        'locales/de/shop,main.json (de)',
        'locales/pl/shop,main.json (pl)',
      ]);
      const rows = files.flatMap(([header, ...lines]) =>
        lines.map((line) => {
          const match = /^ {2} *(\d+) {2}(error|warning) +(\S+) +(.*)$/.exec(line);
          expect(match, line).not.toBeNull();
          return {
            file: header!.replace(/ \(\w+\)$/, ''),
            line: Number(match![1]),
            kind: match![3],
            text: match![4]!,
          };
        }),
      );
      // A key is shown as it is, or quoted as JSON when it holds a line break.
      const shownKey = (key: string) => (/[\r\n]/.test(key) ? JSON.stringify(key) : key);
      expect(
        rows.map(({ text, ...row }, index) => {
          const key = EXPECTED[index]?.key;
          return { ...row, key: key != null && text.startsWith(`${shownKey(key)}: `) ? key : null };
        }),
      ).toEqual(EXPECTED.map(({ file, line, kind, key }) => ({ file, line, kind, key })));
      expect(blocks.at(-1)).toBe(
        '17 problems (9 errors, 8 warnings) in 4 files: 4 missing, 2 outdated, 2 placeholder, 1 icu, 1 plural, ' +
          '2 markup, 1 glossary, 1 max-length, 2 copy, 1 extra; 2 locales checked against source version 2.',
      );
    });

    it('when run with --format github, then each finding is a workflow command GitHub reads back exactly', async () => {
      const result = await tolk('check', '--format', 'github');
      expect(result.code).toBe(1);
      const commands = parseGithub(result.stdout);
      expect(
        commands.map(({ file, line, title, message }, index) => {
          const key = EXPECTED[index]?.key;
          return {
            file,
            line,
            kind: /^tolk check: (\S+) \(/.exec(title)![1],
            locale: /\((\S+)\)$/.exec(title)![1],
            key: key != null && message.startsWith(`${key}: `) ? key : null,
          };
        }),
      ).toEqual(EXPECTED.map(({ file, line, kind, locale, key }) => ({ file, line, kind, locale, key })));
      expect(commands.find((command) => command.message.startsWith('shop,main.button:'))?.severity).toBe(
        'warning',
      );
      expect(commands.find((command) => command.message.startsWith('shop,main.greeting:'))?.severity).toBe(
        'error',
      );
      // The title's ':' is escaped on the wire and the summary goes to stderr, not into the annotations.
      expect(result.stdout).toContain('title=tolk check%3A placeholder (de)::');
      expect(result.stdout).toContain('::error file=locales/de/shop%2Cmain.json,line=1,');
      expect(result.stdout).toContain('::shop,main.Sale: 50%25, today%0Aonly: no translation\n');
      expect(result.stderr).toContain('17 problems');
    });

    it('when run with --format gitlab, then the report is a Code Quality array with stable fingerprints', async () => {
      const first = await tolk('check', '--format', 'gitlab');
      expect(first.code).toBe(1);
      const issues = codeQualityReport.parse(first.json());
      expect(
        issues.map((issue) => ({
          file: issue.location.path,
          line: issue.location.lines.begin,
          kind: issue.check_name,
        })),
      ).toEqual(EXPECTED.map(({ file, line, kind }) => ({ file, line, kind: `tolk-${kind}` })));
      expect(new Set(issues.map((issue) => issue.fingerprint)).size).toBe(issues.length);
      expect(issues.find((issue) => issue.check_name === 'tolk-icu')?.severity).toBe('critical');
      expect(issues.find((issue) => issue.check_name === 'tolk-copy')?.severity).toBe('minor');
      const again = codeQualityReport.parse((await tolk('check', '--format', 'gitlab')).json());
      expect(again.map((issue) => issue.fingerprint)).toEqual(issues.map((issue) => issue.fingerprint));
    });

    it('when --locale names one locale, then only its files are checked', async () => {
      const result = await tolk('check', '--locale', 'pl', '--json');
      expect(result.code).toBe(1);
      expect(result.json().findings.map((finding: Expected) => finding.file)).toEqual([
        'l10n/app_pl.arb',
        'locales/pl/shop,main.json',
      ]);
    });
  });

  it('when every target value is right, then check says so and exits 0', async () => {
    const { cli, tolk, projectId } = await project('de');
    // Copies of the source that are no problem: a glossary term kept as is, a key never
    // translated, a text without words; an excluded key needs no translation at all.
    const call = (method: string, path: string, body: unknown) =>
      system.call(method, `/v1/projects/${projectId}${path}`, token, body);
    expect(
      (
        await call('PUT', '/glossary', {
          entries: [{ term: 'Visual Studio Code', caseSensitive: true, keepAsIs: true, translations: {} }],
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('PATCH', '', {
          settings: {
            keyRules: { humanOnly: [], neverTranslate: ['common.motto'], exclude: ['common.debug.*'] },
          },
        })
      ).status,
    ).toBe(200);
    await cli.writeJson('locales/en/common.json', {
      greeting: 'Hello {{name}}',
      items_one: 'One item',
      items_other: '{{count}} items',
      save: '<b>Save</b> now',
      editor: 'Visual Studio Code',
      motto: 'Just do it',
      year: '{{year}} 2026',
      debug: { banner: 'Debug build' },
    });
    expect((await tolk('push')).code).toBe(0);
    await cli.writeJson('locales/de/common.json', {
      greeting: 'Hallo {{name}}',
      items_one: 'Ein Artikel',
      items_other: '{{count}} Artikel',
      save: '<b>Speichern</b> jetzt',
      editor: 'Visual Studio Code',
      motto: 'Just do it',
      year: '{{year}} 2026',
    });
    await cli.writeJson(ARB_DE, RIGHT_DE_ARB);
    const human = await tolk('check');
    expect(human.code, human.stdout + human.stderr).toBe(0);
    expect(human.stdout).toBe('No problems: 1 locale checked against source version 1.\n');
    expect((await tolk('check', '--format', 'github')).stdout).toBe('');
    expect((await tolk('check', '--format', 'gitlab')).json()).toEqual([]);
    expect((await tolk('check', '--json')).json()).toMatchObject({ ok: true, findings: [] });
  });

  it('when the only finding is a German "OK" equal to the English one, then it is a warning printed and the exit is 0; --strict exits 1; a broken placeholder exits 1', async () => {
    const { cli, tolk } = await project('de');
    await cli.writeJson('locales/en/common.json', { ok: 'OK', greeting: 'Hello {{name}}' });
    expect((await tolk('push')).code).toBe(0);
    await cli.writeJson('locales/de/common.json', { ok: 'OK', greeting: 'Hallo {{name}}' });
    await cli.writeJson(ARB_DE, RIGHT_DE_ARB);

    const human = await tolk('check');
    expect(human.code, human.stdout + human.stderr).toBe(0);
    expect(human.stdout).toContain('warning  copy  common.ok: the same text as the source (en)');
    expect(human.stdout).toContain('1 problem (0 errors, 1 warning)');
    expect(human.stdout).toContain('Only warnings: the check passes (`--strict` fails on them).');
    const json = await tolk('check', '--json');
    expect(json.code).toBe(0);
    expect(json.json()).toMatchObject({
      ok: true,
      counts: { errors: 0, warnings: 1 },
      findings: [{ key: 'common.ok', kind: 'copy', severity: 'warning' }],
    });
    const github = await tolk('check', '--format', 'github');
    expect(github.code).toBe(0);
    expect(parseGithub(github.stdout).map(({ severity, line }) => ({ severity, line }))).toEqual([
      { severity: 'warning', line: 2 },
    ]);
    const gitlab = await tolk('check', '--format', 'gitlab');
    expect(gitlab.code).toBe(0);
    expect(codeQualityReport.parse(gitlab.json()).map((issue) => issue.severity)).toEqual(['minor']);

    const strict = await tolk('check', '--strict', '--json');
    expect(strict.code).toBe(1);
    expect(strict.json()).toMatchObject({ ok: false, counts: { errors: 0, warnings: 1 } });
    expect((await tolk('check', '--strict')).stdout).not.toContain('Only warnings');

    await cli.writeJson('locales/de/common.json', { ok: 'OK', greeting: 'Hallo {{nme}}' });
    const broken = await tolk('check', '--json');
    expect(broken.code).toBe(1);
    expect(broken.json()).toMatchObject({ ok: false, counts: { errors: 1, warnings: 1 } });
  });

  it('when an annotation changed and is not pushed yet, then the keys it describes are outdated, unless the project keeps translations on a context change', async () => {
    const { cli, tolk, projectId } = await project('de');
    const source = {
      '@checkout': { description: 'The checkout page' },
      checkout: { pay: 'Pay now', back: 'Back to cart' },
      title: 'Shop',
      '@title': { description: 'The page title' },
    };
    await cli.writeJson('locales/en/common.json', source);
    expect((await tolk('push')).code).toBe(0);
    await cli.writeJson('locales/de/common.json', {
      checkout: { pay: 'Jetzt bezahlen', back: 'Zurück zum Warenkorb' },
      title: 'Laden',
    });
    await cli.writeJson(ARB_DE, RIGHT_DE_ARB);
    expect((await tolk('check')).code).toBe(0);

    // The group's note changed: both keys under it; the title's removed: the title.
    await cli.writeJson('locales/en/common.json', {
      ...source,
      '@checkout': { description: 'The checkout page, on a phone' },
      '@title': undefined,
    });
    // Outdated is a warning: printed, failing only with --strict.
    const result = await tolk('check', '--json');
    expect(result.code).toBe(0);
    expect((await tolk('check', '--strict')).code).toBe(1);
    const findings = result.json().findings as { key: string; kind: string; line: number; message: string }[];
    expect(findings.map(({ key, kind, line }) => ({ key, kind, line }))).toEqual([
      { key: 'common.checkout.pay', kind: 'outdated', line: 3 },
      { key: 'common.checkout.back', kind: 'outdated', line: 4 },
      { key: 'common.title', kind: 'outdated', line: 6 },
    ]);
    expect(findings[0]!.message).toContain('annotation');

    // A deleted key's annotation went with it (the server's rule): the key under its name is not
    // outdated; the target's value of the deleted key is extra.
    await cli.writeJson('locales/en/common.json', {
      ...source,
      'save.all': 'Save all',
      '@save.all': { description: 'A button' },
      'save.all.done': 'Saved',
    });
    expect((await tolk('push')).code).toBe(0);
    await cli.writeJson('locales/de/common.json', {
      checkout: { pay: 'Jetzt bezahlen', back: 'Zurück zum Warenkorb' },
      title: 'Laden',
      'save.all': 'Alles speichern',
      'save.all.done': 'Gespeichert',
    });
    const before = await tolk('check');
    expect(before.code, before.stdout).toBe(0);
    await cli.writeJson('locales/en/common.json', { ...source, 'save.all.done': 'Saved' });
    const deleted = await tolk('check', '--json');
    expect(
      deleted.json().findings.map(({ key, kind }: { key: string; kind: string }) => ({ key, kind })),
    ).toEqual([{ key: 'common.save.all', kind: 'extra' }]);

    // The changed annotations again, with the deleted key gone from the target too.
    await cli.writeJson('locales/de/common.json', {
      checkout: { pay: 'Jetzt bezahlen', back: 'Zurück zum Warenkorb' },
      title: 'Laden',
      'save.all.done': 'Gespeichert',
    });
    await cli.writeJson('locales/en/common.json', {
      ...source,
      '@checkout': { description: 'The checkout page, on a phone' },
      '@title': undefined,
      'save.all.done': 'Saved',
    });
    expect((await tolk('check', '--strict')).code).toBe(1);

    const off = await system.call('PATCH', `/v1/projects/${projectId}`, token, {
      settings: { outdateOnContextChange: false },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect((await tolk('check', '--strict')).code).toBe(0);
  });

  describe('when the local source adds a key and changes the text of another against the pushed main source', () => {
    let cli: CliHarness;
    let tolk: (...args: string[]) => ReturnType<CliHarness['tolk']>;
    const MAIN = { title: 'Shop', greeting: 'Hello {{name}}', bye: 'Goodbye' };
    const MAIN_DE = { title: 'Laden', greeting: 'Hallo {{name}}', bye: 'Auf Wiedersehen' };
    const placedOf = (findings: Finding[]) =>
      findings.map(({ line, key, kind, severity }) => ({ line, key, kind, severity }));

    beforeAll(async () => {
      let projectId: string;
      ({ cli, tolk, projectId } = await project('de'));
      await cli.writeJson('locales/en/common.json', MAIN);
      expect((await tolk('push')).code).toBe(0);
      const upload = await system.call(
        'PUT',
        `/v1/projects/${projectId}/locales/de/translations?sourceVersion=1`,
        token,
        { common: MAIN_DE, app: { saveLabel: RIGHT_DE_ARB.saveLabel, welcome: RIGHT_DE_ARB.welcome } },
      );
      expect(upload.status, JSON.stringify(upload.body)).toBe(200);
      const pull = await tolk('pull');
      expect(pull.code, pull.stderr).toBe(0);
      expect(await cli.readJson('locales/de/common.json')).toEqual(MAIN_DE);
      const clean = await tolk('check');
      expect(clean.code, clean.stdout).toBe(0);
      // The pull request: one key added, one key's text changed; its target files as main's.
      await cli.writeJson('locales/en/common.json', {
        ...MAIN,
        bye: 'Goodbye, see you soon',
        checkout: 'Go to checkout',
      });
    });

    it('when checked, then both are pending, notices that do not fail it, in every output, and the exit is 0', async () => {
      const json = await tolk('check', '--json');
      expect(json.code, json.stderr).toBe(0);
      const document = json.json();
      expect(document).toMatchObject({
        ok: true,
        sourceVersion: 1,
        counts: { errors: 0, warnings: 0, byKind: { pending: 2 } },
      });
      // `bye` at its line in the German file; `checkout`, not in it, at line 1.
      expect(placedOf(document.findings)).toEqual([
        { line: 1, key: 'common.checkout', kind: 'pending', severity: 'notice' },
        { line: 4, key: 'common.bye', kind: 'pending', severity: 'notice' },
      ]);
      expect(document.findings[0].message).toContain("not in the server's main source yet");
      expect(document.findings[1].message).toContain("its source text differs from the server's main source");

      const human = await tolk('check');
      expect(human.code).toBe(0);
      expect(human.stdout).toContain('\n  1  notice   pending  common.checkout: new: ');
      expect(human.stdout).toContain('\n  4  notice   pending  common.bye: its source text differs');
      expect(human.stdout.trimEnd().split('\n').at(-1)).toBe(
        "No problems: 1 locale checked against source version 1. 2 pending: new or changed against the server's main " +
          'source, translated once pushed there (`--require-translations` fails on them).',
      );
      const github = await tolk('check', '--format', 'github');
      expect(github.code).toBe(0);
      expect(github.stdout).toContain(
        '::notice file=locales/de/common.json,line=4,title=tolk check%3A pending (de)::common.bye: ',
      );
      const gitlab = await tolk('check', '--format', 'gitlab');
      expect(codeQualityReport.parse(gitlab.json()).map((issue) => issue.severity)).toEqual(['info', 'info']);
      // A notice is no warning: --strict passes too.
      expect((await tolk('check', '--strict')).code).toBe(0);
    });

    it('when run with --require-translations, then they are checked as every key: the missing translation fails it', async () => {
      const result = await tolk('check', '--require-translations', '--json');
      expect(result.code).toBe(1);
      expect(result.json()).toMatchObject({ ok: false, counts: { errors: 1, warnings: 1 } });
      expect(placedOf(result.json().findings)).toEqual([
        { line: 1, key: 'common.checkout', kind: 'missing', severity: 'error' },
        { line: 4, key: 'common.bye', kind: 'outdated', severity: 'warning' },
      ]);
    });

    it("when a key main has, with main's text, lacks its translation or has a broken one, then that still fails it", async () => {
      await cli.writeJson('locales/de/common.json', { greeting: 'Hallo {{nme}}', bye: 'Auf Wiedersehen' });
      try {
        const result = await tolk('check', '--json');
        expect(result.code).toBe(1);
        expect(placedOf(result.json().findings)).toEqual([
          { line: 1, key: 'common.checkout', kind: 'pending', severity: 'notice' },
          { line: 1, key: 'common.title', kind: 'missing', severity: 'error' },
          { line: 2, key: 'common.greeting', kind: 'placeholder', severity: 'error' },
          { line: 3, key: 'common.bye', kind: 'pending', severity: 'notice' },
        ]);
        // A translation of the pull request's own, made for the new text, is judged as any other.
        await cli.writeJson('locales/de/common.json', {
          ...MAIN_DE,
          bye: 'Tschüss, {{name}}',
          checkout: 'Zur Kasse',
        });
        const own = await tolk('check', '--json');
        expect(own.code).toBe(1);
        expect(placedOf(own.json().findings)).toEqual([
          { line: 4, key: 'common.bye', kind: 'outdated', severity: 'warning' },
          { line: 4, key: 'common.bye', kind: 'placeholder', severity: 'error' },
        ]);
      } finally {
        await cli.writeJson('locales/de/common.json', MAIN_DE);
      }
    });

    it('when a source file of its own is new, then its absent target file is one pending notice', async () => {
      await cli.writeJson('locales/en/help.json', { faq: 'Questions', contact: 'Write to us' });
      try {
        const result = await tolk('check', '--json');
        expect(result.code, result.stdout).toBe(0);
        expect(
          result.json().findings.filter((finding: Finding) => finding.file === 'locales/de/help.json'),
        ).toEqual([expect.objectContaining({ line: 1, key: null, kind: 'pending', severity: 'notice' })]);
      } finally {
        await rm(join(cli.cwd, 'locales/en/help.json'));
      }
    });
  });

  it('when the files are YAML (Rails) and Java properties, then each finding points at its line', async () => {
    const cli = await createCliHarness(system.base);
    harnesses.push(cli);
    const tolk = (...args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
    const init = await tolk('init', '--name', 'Formats', '--targets', 'de', '--yes', '--json');
    expect(init.code, init.stderr).toBe(0);
    await cli.writeJson('tolk.json', {
      ...(await cli.readJson('tolk.json')),
      files: [
        { path: 'config/locales/{locale}.yml', format: 'yaml', rails: true, namespace: 'rails' },
        { path: 'i18n/messages_{locale}.properties', format: 'properties', namespace: 'messages' },
      ],
    });
    const write = async (path: string, text: string) => {
      await mkdir(join(cli.cwd, path, '..'), { recursive: true });
      await writeFile(join(cli.cwd, path), text);
    };
    await write(
      'config/locales/en.yml',
      'en:\n  greeting: "Hello %{name}"\n  nav:\n    home: Home page\n    cart: "Your cart: %{count} items"\n',
    );
    await write('i18n/messages_en.properties', 'app.title=Welcome {0}\napp.bye=Goodbye and see you later\n');
    expect((await tolk('push')).code).toBe(0);
    await write(
      'config/locales/de.yml',
      'de:\n  greeting: "Hallo %{nme}"\n  nav:\n    home: Startseite\n    cart: "Dein Warenkorb"\n',
    );
    await write(
      'i18n/messages_de.properties',
      '# German\napp.title=Willkommen\napp.bye=Goodbye and see you later\n',
    );

    const result = await tolk('check', '--json');
    expect(result.code, result.stderr).toBe(1);
    expect(
      result.json().findings.map(({ file, line, key, kind }: Expected) => ({ file, line, key, kind })),
    ).toEqual([
      { file: 'config/locales/de.yml', line: 2, key: 'rails.greeting', kind: 'placeholder' },
      { file: 'config/locales/de.yml', line: 5, key: 'rails.nav.cart', kind: 'placeholder' },
      { file: 'i18n/messages_de.properties', line: 2, key: 'messages.app.title', kind: 'placeholder' },
      { file: 'i18n/messages_de.properties', line: 3, key: 'messages.app.bye', kind: 'copy' },
    ]);
  });

  describe('exit codes', () => {
    it('when the usage is wrong, then exit 2 with what was wrong', async () => {
      const { cli, tolk } = await project('de');
      await pushSource(cli, tolk);
      const format = await tolk('check', '--format', 'xml');
      expect(format.code).toBe(2);
      expect(format.stderr).toContain('Allowed choices are human, json, github, gitlab');
      const both = await tolk('check', '--json', '--format', 'github');
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('--json and --format github ask for two outputs');
      const sourceLocale = await tolk('check', '--locale', 'en');
      expect(sourceLocale.code).toBe(2);
      expect(sourceLocale.stderr).toContain('en is the source locale');
      const notTarget = await tolk('check', '--locale', 'fr');
      expect(notTarget.code).toBe(2);
      expect(notTarget.stderr).toContain('fr: not a target locale of the project');
    });

    it('when nothing was pushed yet, then exit 2 saying to push', async () => {
      const { cli, tolk } = await project('de');
      await cli.writeJson('locales/en/common.json', { a: 'A' });
      const result = await tolk('check');
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('NO_SOURCE: Nothing to check against yet');
    });

    it('when there is no login, then exit 3; when the server cannot be reached, then exit 4', async () => {
      const { cli, tolk } = await project('de');
      await pushSource(cli, tolk);
      const anonymous = await cli.tolk(['check']);
      expect(anonymous.code).toBe(3);
      const unreachable = await cli.tolk(['check', '--format', 'json'], {
        env: { TOLK_TOKEN: token, TOLK_API_URL: 'http://127.0.0.1:1', TOLK_MAX_RETRIES: '0' },
      });
      expect(unreachable.code).toBe(4);
      expect(unreachable.json().error.code).toBe('NETWORK_ERROR');
    });
  });

  async function pushSource(cli: CliHarness, tolk: (...args: string[]) => ReturnType<CliHarness['tolk']>) {
    await cli.writeJson('locales/en/common.json', { a: 'A' });
    expect((await tolk('push')).code).toBe(0);
  }
});
