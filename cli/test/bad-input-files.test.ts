/**
 * Bad input in the locale files (DESIGN §15), end to end against the real system with the model
 * stand-in: a 200 MB target file, a binary file, UTF-16 without a byte order mark, JSON nested
 * 100,000 levels, XML with an entity bomb or a DOCTYPE, YAML whose anchors would expand without
 * bound, a PO with a broken Plural-Forms, keys given twice. Each is an error of its file (named at
 * its line and column, the file left as it is, exit 6) or findings on its keys (the file read), the
 * rest goes on, the process stays within its memory, and nothing the server has is lost.
 */
import { stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSetProject, systemWithModel, type FileSetProject } from './support/file-set-project.js';

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

/** Polish as Transifex writes it (Wagtail's): a fourth form, for fractions, is CLDR's `other`. */
const POLISH_FORMS =
  'nplurals=4; plural=(n==1 ? 0 : (n%10>=2 && n%10<=4) && (n%100<12 || n%100>14) ? 1 : n!=1 && (n%10>=0 && n%10<=1) || (n%10>=5 && n%10<=9) || (n%100>=12 && n%100<=14) ? 2 : 3);';

describe('bad input in locale files', () => {
  const world = systemWithModel();

  /** A project of `files`, pushed and translated into de and pl with every file as given. */
  async function project(files: unknown, contents: Record<string, string>) {
    const app = await fileSetProject({ ...world, targets: ['de', 'pl'], files, contents });
    const push = await app.tolk('push');
    expect(push.code, push.stderr).toBe(0);
    const first = await app.translate();
    expect(first.code, first.stderr).toBe(0);
    return app;
  }

  describe('a JSON app', () => {
    let app: FileSetProject;
    const PL = 'locales/pl.json';
    const GOOD = json({ title: 'Tytuł', save: 'Zapisz' });

    beforeAll(async () => {
      app = await project([{ path: 'locales/{locale}.json', format: 'json' }], {
        'locales/en.json': json({ title: 'Title', save: 'Save' }),
        'locales/de.json': json({ title: 'Titel', save: 'Speichern' }),
        [PL]: GOOD,
      });
    });
    afterAll(async () => {
      await app?.remove();
    });

    /**
     * With pl's file as `bytes` (or made by `make`): check, translate and pull each name it at
     * `place` with `code`, exit 6, write de, leave pl's file as it is, and the server keeps pl.
     */
    async function unreadable(code: string, place: string, reason: RegExp, make: () => Promise<void>) {
      await make();
      const stored = async () => (await app.stored('pl')).content;
      const before = { file: await stat(join(app.cli.cwd, PL)), stored: await stored() };
      const bytes = before.file.size < 1024 * 1024 ? await app.read(PL) : undefined;
      try {
        const check = await app.tolk('check', '--json');
        expect(check.code, check.stderr).toBe(6);
        const [line, column] = place.split(':').slice(-2).map(Number);
        expect(check.json().findings).toContainEqual(
          expect.objectContaining({ file: PL, line, column, locale: 'pl', kind: 'unreadable', key: null }),
        );
        for (const run of [() => app.translate('--force'), () => app.tolk('pull')]) {
          const result = await run();
          expect(result.code, result.stderr).toBe(6);
          const error = result.stderr
            .split('\n')
            .find((text) => text.startsWith(`error: ${code}: ${place}: `));
          expect(error, result.stderr).toMatch(reason);
          expect((await stat(join(app.cli.cwd, PL))).size).toBe(before.file.size);
          if (bytes) expect((await app.read(PL)).equals(bytes)).toBe(true);
          expect(await stored()).toBe(before.stored);
        }
        expect((await app.read('locales/de.json')).toString()).toContain('"title"');
      } finally {
        await app.write(PL, GOOD);
      }
    }

    it('when the target file is 200 MB, then it is refused before it is read: the process grows by far less than the file', async () => {
      const grownBefore = process.resourceUsage().maxRSS;
      await unreadable(
        'FILE_TOO_LARGE',
        `${PL}:1:1`,
        /: 200 MiB, larger than the 32 MiB a locale file may be/,
        async () => {
          await app.write(PL, '{');
          await truncate(join(app.cli.cwd, PL), 200 * 1024 * 1024);
        },
      );
      // maxRSS is in KiB: the peak of the whole process, which never held the file.
      expect(process.resourceUsage().maxRSS - grownBefore).toBeLessThan(64 * 1024);
    });

    it('when the target file is binary, then it is named at the NUL byte or the first byte that is no UTF-8', async () => {
      await unreadable('INVALID_FILE', `${PL}:1:16`, /holds a NUL byte: it is a binary file/, () =>
        app.write(PL, Buffer.concat([Buffer.from('SQLite format 3'), Buffer.alloc(100)])),
      );
      await unreadable('INVALID_FILE', `${PL}:1:1`, /is not UTF-8 text/, () =>
        app.write(PL, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])),
      );
    });

    it('when the target file is UTF-16 without a byte order mark, then the error says so', async () => {
      await unreadable(
        'INVALID_FILE',
        `${PL}:1:1`,
        /is UTF-16 text \(little endian, without a byte order mark\), not UTF-8/,
        () => app.write(PL, Buffer.from(GOOD, 'utf16le')),
      );
    });

    it('when the target file is nested 100,000 levels deep, then it is named at the bracket past 32', async () => {
      await unreadable('INVALID_FILE', `${PL}:2:192`, /is nested deeper than 32 levels/, () =>
        app.write(PL, '{\n"a": ' + '{"b": '.repeat(100_000) + '"x"' + '}'.repeat(100_000) + '}\n'),
      );
    });

    it('when a key is given twice, then every command reads the file, warns at its line, and goes on with exit 0', async () => {
      await app.write(PL, '{\n  "title": "Tytuł",\n  "save": "Zapisz",\n  "save": "Zachowaj"\n}\n');
      try {
        const check = await app.tolk('check', '--json');
        expect(check.json().findings).toContainEqual(
          expect.objectContaining({
            file: PL,
            line: 4,
            column: 3,
            key: 'save',
            kind: 'duplicate',
            severity: 'warning',
          }),
        );
        expect(check.code).not.toBe(6);
        const warning = `warning: ${PL}:4:3: save: "save" is given twice in the same object (first on line 3)`;
        for (const run of [
          () => app.tolk('push'),
          () => app.translate(),
          () => app.tolk('pull', '--force'),
        ]) {
          const result = await run();
          expect(result.code, result.stderr).toBe(0);
          expect(result.stderr).toContain(warning);
        }
      } finally {
        await app.write(PL, GOOD);
      }
    });
  });

  it('when XML has an entity bomb or a DOCTYPE, then the file is refused at the DOCTYPE and nothing is expanded', async () => {
    const units = (target: string) =>
      `<?xml version="1.0" encoding="UTF-8" ?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n` +
      `  <file source-language="en"${target} datatype="plaintext" original="ng2.template">\n    <body>\n` +
      `      <trans-unit id="title">\n        <source>Title</source>\n      </trans-unit>\n    </body>\n  </file>\n</xliff>\n`;
    const app = await project([{ path: 'messages.{locale}.xlf', format: 'xliff', source: 'messages.xlf' }], {
      'messages.xlf': units(''),
      'messages.de.xlf': units(' target-language="de"'),
      'messages.pl.xlf': units(' target-language="pl"'),
    });
    try {
      const lol = ['<!ENTITY lol "lol">'];
      for (let level = 1; level <= 9; level++)
        lol.push(`<!ENTITY lol${level} "${`&lol${level === 1 ? '' : level - 1};`.repeat(10)}">`);
      const bomb = units(' target-language="pl"')
        .replace('<xliff', `<!DOCTYPE xliff [\n${lol.join('\n')}\n]>\n<xliff`)
        .replace('<source>Title</source>', '<source>Title</source>\n        <target>&lol9;</target>');
      await app.write('messages.pl.xlf', bomb);
      const grownBefore = process.resourceUsage().maxRSS;
      const pull = await app.tolk('pull');
      expect(pull.code, pull.stderr).toBe(6);
      expect(pull.stderr).toMatch(/error: INVALID_FILE: messages\.pl\.xlf:\d+:\d+: has a <!DOCTYPE>/);
      expect((await app.read('messages.pl.xlf')).toString()).toBe(bomb);
      expect(process.resourceUsage().maxRSS - grownBefore).toBeLessThan(64 * 1024);
    } finally {
      await app.remove();
    }
  });

  it('when YAML anchors would expand without bound, then each alias is a finding, nothing is expanded, and translate goes on', async () => {
    const app = await project([{ path: 'locales/{locale}.yml', format: 'yaml' }], {
      'locales/en.yml': 'title: Title\nsave: Save\n',
      'locales/de.yml': 'title: Titel\nsave: Speichern\n',
      'locales/pl.yml': 'title: Tytuł\nsave: Zapisz\n',
    });
    try {
      const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
      for (let level = 1; level < 9; level++) {
        const name = String.fromCharCode(97 + level);
        levels.push(
          `${name}: &${name} [${Array(9)
            .fill(`*${String.fromCharCode(96 + level)}`)
            .join(',')}]`,
        );
      }
      await app.write('locales/pl.yml', `title: Tytuł\n${levels.join('\n')}\n`);
      const grownBefore = process.resourceUsage().maxRSS;
      const check = await app.tolk('check', '--json');
      expect(check.code).toBe(1);
      const aliases = (check.json().findings as { kind: string; message: string }[]).filter((finding) =>
        finding.message.includes('is the alias'),
      );
      expect(aliases).toHaveLength(72);
      const translate = await app.translate('--json');
      expect(translate.code, translate.stderr).toBe(0);
      expect(translate.stderr).toContain('warning: locales/pl.yml:3:');
      expect(translate.stderr).toContain('(`tolk check` lists them all)');
      expect(process.resourceUsage().maxRSS - grownBefore).toBeLessThan(64 * 1024);
    } finally {
      await app.remove();
    }
  });

  it('when a PO has a broken Plural-Forms, then it is an error finding at its line, its plural entries are missing, and translate writes them back from the server with a Plural-Forms gettext reads', async () => {
    const header = (language: string, forms: string) =>
      `msgid ""\nmsgstr ""\n"Language: ${language}\\n"\n"Plural-Forms: ${forms}\\n"\n\n`;
    const app = await project([{ path: 'po/{locale}.po', format: 'po', source: 'po/messages.pot' }], {
      'po/messages.pot':
        'msgid ""\nmsgstr ""\n\nmsgid "Title"\nmsgstr ""\n\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n',
      'po/de.po':
        header('de', 'nplurals=2; plural=(n != 1);') +
        'msgid "Title"\nmsgstr "Titel"\n\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d Datei"\nmsgstr[1] "%d Dateien"\n',
      'po/pl.po':
        header('pl', POLISH_FORMS) +
        'msgid "Title"\nmsgstr "Tytuł"\n\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d plik"\nmsgstr[1] "%d pliki"\nmsgstr[2] "%d plików"\nmsgstr[3] "%d pliku"\n',
    });
    try {
      const broken =
        header('pl', 'nplurals=3; plural=(n==1 ? 0 : ;') +
        'msgid "Title"\nmsgstr "Tytuł"\n\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d plik"\nmsgstr[1] "%d pliki"\nmsgstr[2] "%d plików"\n';
      await app.write('po/pl.po', broken);
      const check = await app.tolk('check', '--json');
      expect(check.code).toBe(1);
      expect(check.json().findings).toContainEqual(
        expect.objectContaining({
          file: 'po/pl.po',
          line: 4,
          column: 1,
          key: null,
          kind: 'plural',
          severity: 'error',
        }),
      );
      expect(check.json().findings).toContainEqual(
        expect.objectContaining({ file: 'po/pl.po', locale: 'pl', key: '%d file', kind: 'missing' }),
      );
      const translate = await app.translate('--force');
      expect(translate.code, translate.stderr).toBe(0);
      expect(translate.stderr).toContain('error: po/pl.po:4:1: Plural-Forms');
      const written = (await app.read('po/pl.po')).toString();
      expect(written).toContain('"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2');
      // The server's translation of the entry the file could not say (a person's, kept).
      expect(written).toContain('msgstr[0] "%d plik"\nmsgstr[1] "%d pliki"\nmsgstr[2] "%d plików"');
      expect(written).toContain('msgstr "Tytuł"');
    } finally {
      await app.remove();
    }
  });
});
