/**
 * `tolk merge-driver` as git runs it: a real repository registers it with `tolk merge-driver
 * --install`, two branches edit the same locale files, and `git merge` calls the bundled `tolk`
 * (on git's PATH, as npm installs it) for each of them. What git leaves is read by the
 * platforms' own tools where the CLI's tests use them (msgfmt, aapt2, xmllint).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNamed } from '../../src/formats/index.js';
import { bundleCli } from '../support/bundled-cli.js';
import { aapt2Compile, msgfmtCheck, needTools, xmllint } from '../support/platform-tools.js';
import { FIRST, LAST, LAYOUTS, PROFILE, SETTINGS, conflicted, type Entry, type Layout } from './layouts.js';

/** Running the bundle for each file git merges takes seconds on a busy machine. */
const MERGE_TIMEOUT = 240_000;

let bundle: { dir: string; file: string };
let home: string;

beforeAll(async () => {
  bundle = await bundleCli('tolk-merge-driver-');
  // `tolk` on git's PATH, as a global npm install puts it there.
  const shim = join(bundle.dir, 'tolk');
  await writeFile(shim, `#!/bin/sh\nexec '${process.execPath}' '${bundle.file}' "$@"\n`);
  await chmod(shim, 0o755);
  home = await mkdtemp(join(tmpdir(), 'tolk-merge-home-'));
}, MERGE_TIMEOUT);
afterAll(async () => {
  await rm(bundle.dir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

type Run = { status: number; stdout: string; stderr: string };

/**
 * A command in `cwd`, with no git configuration but the repository's own (no global conflict
 * style or merge tools of the machine) and, unless `withoutTolk`, the bundled `tolk` on the PATH.
 */
function run(command: string, args: string[], cwd: string, withoutTolk = false): Run {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: withoutTolk ? pathWithoutTolk() : `${bundle.dir}:${process.env['PATH'] ?? ''}`,
      HOME: home,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
    },
  });
  if (result.error) throw result.error;
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}

/** The PATH without any folder that has a `tolk` (a test run has the workspace's node_modules/.bin on it). */
function pathWithoutTolk(): string {
  return (process.env['PATH'] ?? '')
    .split(delimiter)
    .filter((folder) => folder !== '' && !existsSync(join(folder, 'tolk')))
    .join(delimiter);
}

function git(cwd: string, ...args: string[]): Run {
  return run('git', args, cwd);
}

function ok(result: Run): Run {
  expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
}

/** The files of the app: a source and a German file of each kind, and one catalog of both. */
const FILES: { layout: Layout; path: string }[] = [
  { layout: LAYOUTS['nested JSON (source)']!, path: 'locales/en.json' },
  { layout: LAYOUTS['nested JSON (source)']!, path: 'locales/de.json' },
  { layout: LAYOUTS['POT (source)']!, path: 'po/messages.pot' },
  { layout: LAYOUTS['PO (target)']!, path: 'po/de.po' },
  { layout: LAYOUTS['Android strings.xml (source)']!, path: 'app/src/main/res/values/strings.xml' },
  { layout: LAYOUTS['Android strings.xml (target)']!, path: 'app/src/main/res/values-de/strings.xml' },
  { layout: LAYOUTS['XLIFF 1.2 (source)']!, path: 'src/locale/messages.xlf' },
  { layout: LAYOUTS['XLIFF 1.2 (target)']!, path: 'src/locale/messages.de.xlf' },
  { layout: LAYOUTS['Xcode String Catalog (every locale)']!, path: 'App/Localizable.xcstrings' },
];

const CONFIG = {
  projectId: 'p_app',
  sourceLocale: 'en',
  targetLocales: ['de'],
  files: [
    { path: 'locales/{locale}.json', format: 'json', namespace: 'web' },
    { path: 'po/{locale}.po', source: 'po/messages.pot', format: 'po', namespace: 'gettext' },
    {
      path: 'app/src/main/res/values-{locale}/strings.xml',
      source: 'app/src/main/res/values/strings.xml',
      format: 'android',
      namespace: 'android',
    },
    {
      path: 'src/locale/messages.{locale}.xlf',
      source: 'src/locale/messages.xlf',
      format: 'xliff',
      namespace: 'angular',
    },
    { path: 'App/Localizable.xcstrings', format: 'xcstrings', namespace: 'ios' },
  ],
};

const repositories: string[] = [];
afterAll(async () => {
  await Promise.all(repositories.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A repository on `main` with tolk.json and every file holding `entries`, committed. */
async function repository(entries: readonly Entry[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tolk-merge-repo-'));
  repositories.push(dir);
  ok(git(dir, 'init', '--quiet', '--initial-branch=main'));
  await writeFile(join(dir, 'tolk.json'), JSON.stringify(CONFIG, null, 2) + '\n');
  await writeFiles(dir, entries);
  ok(git(dir, 'add', '--all'));
  ok(git(dir, 'commit', '--quiet', '--message', 'Strings'));
  return dir;
}

async function writeFiles(dir: string, entries: readonly Entry[], only?: (path: string) => boolean) {
  for (const { layout, path } of FILES) {
    if (only && !only(path)) continue;
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), layout.file(entries));
  }
}

/** A branch from main whose every file (of those `only` names) holds `entries`, committed. */
async function branch(
  dir: string,
  name: string,
  entries: readonly Entry[],
  only?: (path: string) => boolean,
) {
  ok(git(dir, 'checkout', '--quiet', '-b', name, 'main'));
  await writeFiles(dir, entries, only);
  ok(git(dir, 'commit', '--quiet', '--all', '--message', name));
}

const text = (dir: string, path: string) => readFile(join(dir, path), 'utf8');

describe('tolk merge-driver --install', () => {
  it(
    'when run twice, then .gitattributes names the file sets and git config the driver once, and the second run changes nothing',
    async () => {
      const dir = await repository([FIRST, LAST]);
      const first = ok(run('tolk', ['merge-driver', '--install'], dir));
      expect(first.stdout).toContain('Git now merges these locale files key by key (.gitattributes):');
      const attributes = await text(dir, '.gitattributes');
      expect(attributes).toBe(
        [
          '# Locale files of tolk.json, merged key by key (tolk merge-driver --install)',
          '/locales/*.json merge=tolk',
          '/po/*.po merge=tolk',
          '/po/messages.pot merge=tolk',
          '/app/src/main/res/values-*/strings.xml merge=tolk',
          '/app/src/main/res/values/strings.xml merge=tolk',
          '/src/locale/messages.*.xlf merge=tolk',
          '/src/locale/messages.xlf merge=tolk',
          '/App/Localizable.xcstrings merge=tolk',
          '',
        ].join('\n'),
      );
      const driver = ok(git(dir, 'config', '--local', '--get', 'merge.tolk.driver')).stdout;
      expect(driver).toContain('tolk merge-driver --marker-size %L %O %A %B %P');
      // Git gives each file set's files the driver, and no other file.
      const checked = ok(
        git(dir, 'check-attr', 'merge', '--', 'po/de.po', 'App/Localizable.xcstrings', 'tolk.json'),
      ).stdout;
      expect(checked).toBe(
        'po/de.po: merge: tolk\nApp/Localizable.xcstrings: merge: tolk\ntolk.json: merge: unspecified\n',
      );

      const again = ok(run('tolk', ['merge-driver', '--install'], dir));
      expect(again.stdout).toBe('The merge driver is installed already; nothing changed.\n');
      expect(await text(dir, '.gitattributes')).toBe(attributes);
      const settings = ok(git(dir, 'config', '--local', '--get-regexp', '^merge\\.')).stdout;
      expect(
        settings
          .trim()
          .split('\n')
          .map((line) => line.split(' ')[0]),
      ).toEqual(['merge.tolk.name', 'merge.tolk.driver']);
    },
    MERGE_TIMEOUT,
  );

  it(
    "when .gitattributes has lines of its own, then they stay, and --uninstall takes out exactly the driver's",
    async () => {
      const dir = await repository([FIRST, LAST]);
      const own = '*.png binary\n*.sh text eol=lf\n';
      await writeFile(join(dir, '.gitattributes'), own);
      ok(run('tolk', ['merge-driver', '--install'], dir));
      expect(await text(dir, '.gitattributes')).toMatch(
        /^\*\.png binary\n\*\.sh text eol=lf\n\n# Locale files/,
      );
      ok(run('tolk', ['merge-driver', '--install'], dir));
      const removed = ok(run('tolk', ['merge-driver', '--uninstall'], dir));
      expect(removed.stdout).toContain('Took the merge driver out');
      expect(await text(dir, '.gitattributes')).toBe(own);
      expect(git(dir, 'config', '--local', '--get', 'merge.tolk.driver').status).toBe(1);
    },
    MERGE_TIMEOUT,
  );
});

describe('git merge through tolk merge-driver', () => {
  it(
    "when two branches add keys next to each other in the same files of every kind, then git merges them without a conflict and the platforms' tools accept them",
    async (context) => {
      const dir = await repository([FIRST, LAST]);
      ok(run('tolk', ['merge-driver', '--install'], dir));
      ok(git(dir, 'add', '.gitattributes'));
      ok(git(dir, 'commit', '--quiet', '--message', 'Merge locale files by key'));
      await branch(dir, 'settings', [FIRST, SETTINGS, LAST]);
      await branch(dir, 'profile', [FIRST, PROFILE, LAST]);

      const merge = ok(git(dir, 'merge', '--no-edit', 'settings'));
      expect(merge.stdout).not.toContain('CONFLICT');
      expect(merge.stderr).toBe('');
      expect(ok(git(dir, 'status', '--porcelain')).stdout).toBe('');
      // Each file as its format writes both keys where the branches put them: theirs (settings)
      // written into ours (profile).
      for (const { layout, path } of FILES) {
        const merged = await text(dir, path);
        expect(
          [layout.file([FIRST, PROFILE, SETTINGS, LAST]), layout.file([FIRST, SETTINGS, PROFILE, LAST])],
          path,
        ).toContain(merged);
      }

      // The catalog is JSON, and reads back with both keys in both languages.
      const catalog = await readFile(join(dir, 'App/Localizable.xcstrings'));
      expect(Object.keys(JSON.parse(catalog.toString()).strings)).toEqual([
        'First',
        'Last',
        'Profile',
        'Settings',
      ]);
      const de = formatNamed('xcstrings')!.read({
        bytes: catalog,
        locale: 'de',
        path: 'catalog',
        options: {},
      });
      expect(de).toEqual({ First: 'Eins', Last: 'Letzte', Profile: 'Profil', Settings: 'Einstellungen' });

      needTools(context, 'msgfmt', 'aapt2', 'xmllint');
      expect(msgfmtCheck(join(dir, 'po/de.po'))).toMatchObject({ status: 0 });
      for (const path of ['app/src/main/res/values/strings.xml', 'app/src/main/res/values-de/strings.xml']) {
        expect(aapt2Compile(join(dir, path)).compile, path).toMatchObject({ status: 0, stderr: '' });
      }
      for (const path of ['src/locale/messages.xlf', 'src/locale/messages.de.xlf']) {
        expect(xmllint(join(dir, path)), path).toEqual({ status: 0, stdout: '', stderr: '' });
      }
    },
    MERGE_TIMEOUT,
  );

  it(
    'when both branches change one key differently, then git stops with a conflict in that file alone, markers around that key and the key named',
    async () => {
      const dir = await repository([FIRST, LAST]);
      ok(run('tolk', ['merge-driver', '--install'], dir));
      const german = (path: string) => path === 'locales/de.json';
      await branch(dir, 'one', [{ ...FIRST, value: 'Einer' }, LAST], german);
      await branch(dir, 'other', [{ ...FIRST, value: 'Erster' }, LAST, PROFILE], german);

      const merge = git(dir, 'merge', '--no-edit', 'one');
      expect(merge.status).toBe(1);
      expect(merge.stdout).toContain('CONFLICT (content): Merge conflict in locales/de.json');
      expect(merge.stderr).toContain(
        'tolk merge-driver: locales/de.json: both sides changed a key differently: home.First',
      );
      expect(await text(dir, 'locales/de.json')).toBe(
        conflicted(
          LAYOUTS['nested JSON (source)']!.file([{ ...FIRST, value: 'Erster' }, LAST, PROFILE]),
          ['    "First": "Erster",'],
          ['    "First": "Einer",'],
        ),
      );
      expect(ok(git(dir, 'diff', '--name-only', '--diff-filter=U')).stdout).toBe('locales/de.json\n');
    },
    MERGE_TIMEOUT,
  );

  it(
    'when tolk.json is in a folder of the repository, then the driver is registered there and merges its files',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tolk-merge-repo-'));
      repositories.push(dir);
      const json = LAYOUTS['nested JSON (source)']!;
      ok(git(dir, 'init', '--quiet', '--initial-branch=main'));
      await mkdir(join(dir, 'web', 'locales'), { recursive: true });
      const config = {
        projectId: 'p_web',
        sourceLocale: 'en',
        targetLocales: ['de'],
        files: 'locales/{locale}.json',
      };
      await writeFile(join(dir, 'web', 'tolk.json'), JSON.stringify(config));
      await writeFile(join(dir, 'web', 'locales', 'en.json'), json.file([FIRST, LAST]));
      await writeFile(join(dir, 'web', 'locales', 'de.json'), json.file([FIRST, LAST]));
      ok(run('tolk', ['merge-driver', '--install'], join(dir, 'web')));
      expect(await text(dir, 'web/.gitattributes')).toContain('\n/locales/*.json merge=tolk\n');
      ok(git(dir, 'add', '--all'));
      ok(git(dir, 'commit', '--quiet', '--message', 'Web app'));
      for (const [name, added] of [
        ['settings', SETTINGS],
        ['profile', PROFILE],
      ] as const) {
        ok(git(dir, 'checkout', '--quiet', '-b', name, 'main'));
        await writeFile(join(dir, 'web', 'locales', 'de.json'), json.file([FIRST, added, LAST]));
        ok(git(dir, 'commit', '--quiet', '--all', '--message', name));
      }

      ok(git(dir, 'merge', '--no-edit', 'settings'));
      expect(await text(dir, 'web/locales/de.json')).toBe(json.file([FIRST, SETTINGS, PROFILE, LAST]));
    },
    MERGE_TIMEOUT,
  );

  it(
    "when a side does not parse, then git's text merge runs, and the driver says why",
    async () => {
      const dir = await repository([FIRST, LAST]);
      ok(run('tolk', ['merge-driver', '--install'], dir));
      const german = (path: string) => path === 'locales/de.json';
      ok(git(dir, 'checkout', '--quiet', '-b', 'broken', 'main'));
      const broken = LAYOUTS['nested JSON (source)']!.file([FIRST, LAST]).replace(/}\n$/, '},\n');
      await writeFile(join(dir, 'locales/de.json'), broken);
      ok(git(dir, 'commit', '--quiet', '--all', '--message', 'broken'));
      await branch(dir, 'fine', [FIRST, SETTINGS, LAST], german);

      const merge = git(dir, 'merge', '--no-edit', 'broken');
      expect(merge.stderr).toContain(
        'tolk merge-driver: locales/de.json: merged as text by git merge-file: theirs does not parse as json at line 6, column 2',
      );
      // Git's text merge of two changes lines apart: clean, the broken JSON included.
      expect(merge.status, merge.stdout).toBe(0);
      expect(await text(dir, 'locales/de.json')).toBe(
        LAYOUTS['nested JSON (source)']!.file([FIRST, SETTINGS, LAST]).replace(/}\n$/, '},\n'),
      );
    },
    MERGE_TIMEOUT,
  );

  it(
    'when tolk is not on the PATH of git, then the file is merged as git always merged it',
    async () => {
      const dir = await repository([FIRST, LAST]);
      ok(run('tolk', ['merge-driver', '--install'], dir));
      const german = (path: string) => path === 'po/de.po';
      await branch(dir, 'settings', [FIRST, SETTINGS, LAST], german);
      await branch(dir, 'profile', [FIRST, PROFILE, LAST], german);

      const merge = run('git', ['merge', '--no-edit', 'settings'], dir, true);
      // Both added an entry at one place: a conflict of git's text merge, with its markers.
      expect(merge.status).toBe(1);
      expect(merge.stderr).not.toContain('tolk merge-driver');
      const merged = await text(dir, 'po/de.po');
      expect(merged).toMatch(
        /<<<<<<< ours\n[^]*msgid "Profile"[^]*=======\n[^]*msgid "Settings"[^]*>>>>>>> theirs\n/,
      );
    },
    MERGE_TIMEOUT,
  );
});
