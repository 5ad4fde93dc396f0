/**
 * Two sides' edits of a locale file merged key by key in the file's own format and layout
 * (DESIGN §17): each format's files, written here from their entries in the format's usual
 * layout, merged as git's merge driver merges them.
 */
import { describe, expect, it } from 'vitest';
import { formatNamed } from '../../src/formats/index.js';
import { mergeTexts } from '../../src/merge-driver/git.js';
import { mergeLocaleFile, type LocaleFileMerge } from '../../src/merge-driver/merge-locale-file.js';
import { localeFileSubject } from '../../src/merge-driver/subject.js';
import { FIRST, LAST, LAYOUTS, PROFILE, SETTINGS, conflicted, type Layout } from './layouts.js';

function merge(layout: Layout, base: string, ours: string, theirs: string): LocaleFileMerge {
  const subject = localeFileSubject({
    format: formatNamed(layout.format)!,
    formatOptions: layout.options ?? {},
    sourceLocale: 'en',
    targetLocales: ['de'],
    locale: layout.locale,
    path: layout.path,
  });
  return mergeLocaleFile(
    subject,
    { base: Buffer.from(base), ours: Buffer.from(ours), theirs: Buffer.from(theirs) },
    (mine, ancestor, other) => mergeTexts(mine, ancestor, other, 7, process.cwd()),
  );
}

function merged(result: LocaleFileMerge): string {
  expect(result.status, 'reason' in result ? result.reason : '').toBe('merged');
  return (result as { bytes: Buffer }).bytes.toString();
}

describe('merging a locale file key by key, in every format', () => {
  for (const [name, layout] of Object.entries(LAYOUTS)) {
    it(`when both sides add a key after the same key of a ${name} file, then both arrive there in its layout`, () => {
      const { file } = layout;
      const result = merged(
        merge(layout, file([FIRST, LAST]), file([FIRST, SETTINGS, LAST]), file([FIRST, PROFILE, LAST])),
      );
      // Theirs lands where theirs put it, right after the key it follows there.
      expect([file([FIRST, PROFILE, SETTINGS, LAST]), file([FIRST, SETTINGS, PROFILE, LAST])]).toContain(
        result,
      );
    });
  }

  for (const [name, layout] of Object.entries(LAYOUTS)) {
    it(`when one side changes a key of a ${name} file and the other deletes another, then both changes arrive`, () => {
      const { file } = layout;
      const changed = { ...FIRST, value: `${FIRST.value} neu` };
      const result = merged(
        merge(layout, file([FIRST, SETTINGS, LAST]), file([changed, SETTINGS, LAST]), file([FIRST, LAST])),
      );
      expect(result).toBe(file([changed, LAST]));
    });
  }
});

describe('merging a locale file key by key: which changes merge and which conflict', () => {
  const json = LAYOUTS['nested JSON (source)']!;
  const po = LAYOUTS['PO (target)']!;
  const android = LAYOUTS['Android strings.xml (source)']!;

  it('when both sides add the same key with the same value, then it is there once and nothing conflicts', () => {
    const { file } = json;
    const result = merged(
      merge(json, file([FIRST, LAST]), file([FIRST, SETTINGS, LAST]), file([FIRST, SETTINGS, LAST])),
    );
    expect(result).toBe(file([FIRST, SETTINGS, LAST]));
    const other = merged(
      merge(json, file([FIRST, LAST]), file([FIRST, PROFILE, SETTINGS, LAST]), file([FIRST, SETTINGS, LAST])),
    );
    expect(other).toBe(file([FIRST, PROFILE, SETTINGS, LAST]));
  });

  it('when one side deletes a key the other left as it was, then it is deleted with its comment', () => {
    const { file } = po;
    const result = merged(
      merge(
        po,
        file([FIRST, SETTINGS, LAST]),
        file([FIRST, SETTINGS, PROFILE, LAST]),
        file([SETTINGS, LAST]),
      ),
    );
    expect(result).toBe(file([SETTINGS, PROFILE, LAST]));
    expect(result).not.toContain('The first one');
  });

  it('when both sides change one key differently, then conflict markers stand around that entry alone and name it', () => {
    const { file } = json;
    const mine = { ...FIRST, value: 'Einer' };
    const other = { ...FIRST, value: 'Erster' };
    const result = merge(
      json,
      file([FIRST, LAST]),
      file([mine, SETTINGS, LAST]),
      file([other, LAST, PROFILE]),
    );
    expect(result).toMatchObject({ status: 'conflict', keys: ['home.First'] });
    expect((result as { bytes: Buffer }).bytes.toString()).toBe(
      conflicted(
        file([mine, SETTINGS, LAST, PROFILE]),
        ['    "First": "Einer",'],
        ['    "First": "Erster",'],
      ),
    );
  });

  it('when one side deletes a key the other changed, then it is a conflict naming the key', () => {
    const { file } = po;
    const changed = { ...LAST, value: 'Zuletzt' };
    const result = merge(po, file([FIRST, LAST]), file([FIRST, SETTINGS]), file([FIRST, changed]));
    expect(result).toMatchObject({ status: 'conflict', keys: ['Last'] });
    // Ours has no entry there; theirs has its changed one.
    expect((result as { bytes: Buffer }).bytes.toString()).toBe(
      conflicted(
        file([FIRST, SETTINGS]),
        [],
        ['msgid "Last"', 'msgstr "Zuletzt"', ''],
        '#. The settings page',
      ),
    );
  });

  it('when both sides add one key with different values, then it is a conflict naming the key', () => {
    const { file } = android;
    const result = merge(
      android,
      file([FIRST, LAST]),
      file([FIRST, SETTINGS, LAST]),
      file([FIRST, { ...SETTINGS, value: 'Optionen' }, LAST]),
    );
    expect(result).toMatchObject({ status: 'conflict', keys: ['Settings'] });
  });

  it('when a translation of a catalog conflicts, then the key is named with its locale', () => {
    const catalog = LAYOUTS['Xcode String Catalog (every locale)']!;
    const { file } = catalog;
    const result = merge(
      catalog,
      file([FIRST, LAST]),
      file([{ ...FIRST, value: 'Einer' }, LAST]),
      file([{ ...FIRST, value: 'Erster' }, LAST]),
    );
    expect(result).toMatchObject({ status: 'conflict', keys: ['First (de)'] });
  });

  it("when one side changes a key's comment and the other adds a key, then both arrive", () => {
    const { file } = android;
    const recommented = { ...FIRST, comment: 'The very first one' };
    const result = merged(
      merge(android, file([FIRST, LAST]), file([FIRST, SETTINGS, LAST]), file([recommented, LAST])),
    );
    expect(result).toBe(file([recommented, SETTINGS, LAST]));
  });

  it('when both sides add a file (no common ancestor), then their keys merge as additions', () => {
    const { file } = json;
    const result = merged(merge(json, '', file([FIRST, SETTINGS]), file([FIRST, PROFILE])));
    expect([file([FIRST, PROFILE, SETTINGS]), file([FIRST, SETTINGS, PROFILE])]).toContain(result);
  });

  it('when a side does not parse in its format, then it is left to the text merge, saying which and where', () => {
    const { file } = json;
    const result = merge(
      json,
      file([FIRST, LAST]),
      file([FIRST, SETTINGS, LAST]),
      file([FIRST, LAST]).replace('}', '},'),
    );
    expect(result).toEqual({
      status: 'unmergeable',
      reason: expect.stringMatching(/^theirs does not parse as json at line 6, column \d+: /),
    });
  });

  it('when both sides change what the format does not read (a header), then it is left to the text merge, saying so', () => {
    const { file } = po;
    const base = file([FIRST, LAST]);
    const result = merge(
      po,
      base,
      file([FIRST, SETTINGS, LAST]).replace('Anna <anna@example.com>', 'Ben <ben@example.com>'),
      file([FIRST, PROFILE, LAST]).replace('app 1.0', 'app 1.1'),
    );
    expect(result).toEqual({
      status: 'unmergeable',
      reason: expect.stringContaining('both sides change more of the file than its entries'),
    });
  });

  it('when one side changes what the format does not read, then the other side is written into it', () => {
    const { file } = android;
    const result = merged(
      merge(
        android,
        file([FIRST, LAST]),
        file([FIRST, SETTINGS, LAST]),
        file([FIRST, LAST]).replace('#ff0000', '#00ff00'),
      ),
    );
    expect(result).toBe(file([FIRST, SETTINGS, LAST]).replace('#ff0000', '#00ff00'));
  });
});
