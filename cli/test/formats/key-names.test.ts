import { findPluralGroups, parseSourceDocument } from '@tolk/locale-file';
import { describe, expect, it } from 'vitest';
import { keyOfName, nameProblem } from '../../src/formats/key-names.js';

const SENTENCES = ['Saved.', 'Are you sure?', 'Delete %@?', 'Version 2.0', '...', 'a..b', '.hidden', 'a. .b'];

describe('keyOfName', () => {
  it('when a name is a key the server holds, then it is its own key', () => {
    for (const name of [
      'settings.title',
      'Version 2.0',
      'Are you sure?',
      'Delete %@?',
      'items_count',
      'a. .b',
    ])
      expect(keyOfName(name)).toBe(name);
  });

  it('when a dot would make an empty segment, then it is U+2024, and the server accepts every key', () => {
    expect(keyOfName('Saved.')).toBe('Saved\u2024');
    expect(keyOfName('...')).toBe('\u2024\u2024\u2024');
    expect(keyOfName('a..b')).toBe('a\u2024\u2024b');
    expect(keyOfName('.hidden')).toBe('\u2024hidden');
    const document = Object.fromEntries(SENTENCES.map((name) => [keyOfName(name), name]));
    expect(parseSourceDocument(document).keys).toEqual(SENTENCES.map(keyOfName));
    // In a namespace, too.
    expect(parseSourceDocument({ Localizable: document }).values).toEqual(SENTENCES);
  });

  it('when a name ends in an i18next plural suffix, then its key forms no plural group', () => {
    const names = ['items_one', 'items_other', 'place_ordinal_one', 'place_ordinal_other', '_one', '_other'];
    const keys = names.map(keyOfName);
    expect(keys).toEqual([
      'items\u02CDone',
      'items\u02CDother',
      'place_ordinal\u02CDone',
      'place_ordinal\u02CDother',
      '\u02CDone',
      '\u02CDother',
    ]);
    expect(findPluralGroups(names).length).toBeGreaterThan(0);
    expect(findPluralGroups(keys)).toEqual([]);
    expect(findPluralGroups(keys.map((key) => `Localizable.${key}`))).toEqual([]);
    expect(keyOfName('items_others')).toBe('items_others');
  });

  it('when two names differ, then their keys differ: a name that reads as an escape is refused', () => {
    expect(nameProblem('Saved\u2024')).toMatch(/U\+2024/);
    expect(nameProblem('items\u02CDone')).toMatch(/U\+02CD/);
    expect(nameProblem('items\u02CDones')).toBeUndefined();
    expect(nameProblem('@home')).toMatch(/@/);
    expect(nameProblem('')).toMatch(/empty/);
    for (const name of [...SENTENCES, 'items_one']) expect(nameProblem(name)).toBeUndefined();
  });
});
