/**
 * A real Android app's files as they are (NewPipe, from the corpus of real apps), end to end
 * against the real system with the model stand-in. Its Polish `strings.xml` has five `<plurals>`
 * without `other` and its Russian nine, as Crowdin and Weblate wrote them: each is an error
 * finding of `tolk check` at its line, never a reason to refuse the file (DESIGN §15), and
 * `translate` and `pull` go on for every locale. The app is copied into a directory of the test's
 * own; the corpus is never written.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { androidFormat } from '../src/formats/android.js';
import type { FileFinding } from '../src/formats/index.js';
import { fileSetProject, systemWithModel, type FileSetProject } from './support/file-set-project.js';
import { copyRealApp, realApp, realAppsPresent } from './support/real-apps.js';

const TARGETS = ['ar', 'de', 'pl', 'ru', 'zh-CN'];
const RES = 'app/src/main/res';
const fileOf = (locale: string) => `${RES}/values-${locale === 'zh-CN' ? 'zh-rCN' : locale}/strings.xml`;

/**
 * The `<plurals>` of a file that have no item of quantity "other", and the line each starts on:
 * found in the text itself, not by the format under test.
 */
function pluralsWithoutOther(text: string): { name: string; line: number }[] {
  return [...text.matchAll(/<plurals name="([^"]+)">(.*?)<\/plurals>/gs)]
    .filter((match) => !match[2]!.includes('quantity="other"'))
    .map((match) => ({ name: match[1]!, line: text.slice(0, match.index).split('\n').length }));
}

const present = realAppsPresent();

describe.skipIf(!present)('NewPipe, a real Android app, taken as it is', () => {
  const corpus = realApp('android');
  const world = systemWithModel();
  let app: FileSetProject;

  beforeAll(async () => {
    app = await fileSetProject({
      ...world,
      targets: TARGETS,
      files: [
        {
          path: `${RES}/values-{locale}/strings.xml`,
          format: 'android',
          source: `${RES}/values/strings.xml`,
        },
      ],
    });
    await copyRealApp('android', app.cli.cwd);
    const push = await app.tolk('push');
    expect(push.code, push.stderr).toBe(0);
  });
  afterAll(async () => {
    await app?.remove();
  });

  it('when tolk check runs, then each plural without other of pl and ru is an error at its line, and the exit is 1, not 2', async () => {
    const polish = await readFile(join(corpus, fileOf('pl')), 'utf8');
    const russian = await readFile(join(corpus, fileOf('ru')), 'utf8');
    expect(pluralsWithoutOther(polish)).toHaveLength(5);
    expect(pluralsWithoutOther(russian)).toHaveLength(9);

    const check = await app.tolk('check', '--json');
    expect(check.code, check.stderr).toBe(1);
    const findings = check.json().findings as {
      file: string;
      line: number;
      locale: string;
      key: string;
      kind: string;
      severity: string;
      message: string;
    }[];
    for (const [locale, text] of [
      ['pl', polish],
      ['ru', russian],
    ] as const) {
      const plurals = findings.filter((finding) => finding.locale === locale && finding.kind === 'plural');
      const withoutOther = plurals.filter((finding) =>
        finding.message.includes('no item of quantity "other"'),
      );
      expect(withoutOther.map(({ key, line, file, severity }) => ({ key, line, file, severity }))).toEqual(
        pluralsWithoutOther(text).map(({ name, line }) => ({
          key: name,
          line,
          file: fileOf(locale),
          severity: 'error',
        })),
      );
      // Said once, at the element: not again as an ICU message that does not parse.
      expect(findings.filter((finding) => finding.locale === locale && finding.kind === 'icu')).toEqual([]);
    }
    expect(findings.some((finding) => finding.kind === 'unreadable')).toBe(false);
  });

  it('when translate and pull run, then they go on for every locale, and the Polish plurals keep the forms they have', async () => {
    const translate = await app.translate('--json');
    expect(translate.stderr).not.toContain('INVALID_FILE');
    expect(translate.code, translate.stderr).toBe(0);
    const outcomes = translate.json().locales as {
      locale: string;
      uploaded: boolean;
      error: { code: string; message: string } | null;
    }[];
    expect(outcomes.map((outcome) => outcome.locale).sort()).toEqual(TARGETS);
    // The server stores a person's plural without `other` with its finding (DESIGN §15): no
    // locale is refused for it.
    expect(outcomes.filter((outcome) => !outcome.uploaded)).toEqual([]);
    expect(translate.stderr).toContain(
      `error: ${fileOf('pl')}:427:5: listening: <plurals name="listening"> has no item`,
    );

    const pull = await app.tolk('pull');
    expect(pull.stderr).not.toContain('INVALID_FILE');
    expect(pull.code, pull.stderr).toBe(0);
    for (const locale of TARGETS) expect(pull.stdout).toContain(`${locale}: wrote ${fileOf(locale)}`);

    // What Polish plurals have, they keep; `other` is not invented for them.
    const read = async (path: string) => {
      const findings: FileFinding[] = [];
      const document = androidFormat.read({
        bytes: await readFile(path),
        locale: 'pl',
        path: fileOf('pl'),
        options: {},
        findings,
      });
      return { document, findings };
    };
    const before = await read(join(corpus, fileOf('pl')));
    const after = await read(join(app.cli.cwd, fileOf('pl')));
    for (const { name } of pluralsWithoutOther(await readFile(join(corpus, fileOf('pl')), 'utf8'))) {
      expect(after.document[name], name).toBe(before.document[name]);
    }
    // Written in the source's layout (its order), each still without other, and said so.
    const withoutOther = (findings: FileFinding[]) =>
      findings
        .filter((finding) => finding.kind === 'plural')
        .map((finding) => finding.key)
        .sort();
    expect(withoutOther(after.findings)).toEqual(withoutOther(before.findings));
  });
});
