import { pluralCategories } from '@tolk/locale-file';
import { describe, expect, it } from 'vitest';
import { checkAnswer } from '../../src/ai/check-answer.js';
import type { PluralGroupRequest } from '../../src/ai/index.js';

function check(requested: Record<string, string>, answer: string, locale = 'de') {
  const { accepted, problems } = checkAnswer(new Map(Object.entries(requested)), answer, locale);
  return { accepted: Object.fromEntries(accepted), problems };
}

describe('checkAnswer', () => {
  it('when every key keeps its placeholders, then all are accepted', () => {
    const result = check(
      { a: 'Hi {name}, %s', b: 'Click <b>here</b>', c: '{{count}} items' },
      JSON.stringify({ a: 'Hallo {name}, %s', b: 'Klick <b>hier</b>', c: '{{count}} Dinge' }),
    );

    expect(result).toEqual({
      accepted: { a: 'Hallo {name}, %s', b: 'Klick <b>hier</b>', c: '{{count}} Dinge' },
      problems: [],
    });
  });

  it('when placeholders differ, then the key is refused with what was lost and added', () => {
    const result = check({ a: '%1$s sent <b>{count}</b>' }, JSON.stringify({ a: '%1$s sandte <i>{n}</i>' }));

    expect(result.accepted).toEqual({});
    expect(result.problems).toEqual([
      expect.objectContaining({
        key: 'a',
        kind: 'placeholders',
        missing: ['{count}', '<b>', '</b>'],
        unexpected: ['{n}', '<i>', '</i>'],
      }),
    ]);
  });

  it('when values are missing, empty or not strings, then each is named and the rest accepted', () => {
    const result = check(
      { a: 'A', b: 'B', c: 'C', d: 'D', blank: '' },
      JSON.stringify({ a: 'Ah', c: 3, d: '  ', blank: '', extra: 'x' }),
    );

    expect(result.accepted).toEqual({ a: 'Ah', blank: '' });
    expect(result.problems.map((p) => [p.key, p.kind])).toEqual([
      ['b', 'missing'],
      ['c', 'not-a-string'],
      ['d', 'empty'],
      ['extra', 'unexpected-key'],
    ]);
  });

  it('when the answer is in a Markdown code fence, then the JSON inside is read', () => {
    expect(check({ a: 'A' }, '```json\n{"a": "Ah"}\n```').accepted).toEqual({ a: 'Ah' });
  });

  it('when the answer is not a JSON object, then every key is refused as unreadable', () => {
    for (const answer of ['{"a": "Ah"', '["Ah"]', '', 'null']) {
      const result = check({ a: 'A', b: 'B' }, answer);
      expect(result.accepted).toEqual({});
      expect(result.problems.map((p) => p.kind)).toEqual(['unreadable-answer', 'unreadable-answer']);
    }
  });

  describe('ICU messages, for the target locale (DESIGN §11)', () => {
    const files = '{count, plural, one {# file} other {# files}}';

    it('when a Polish plural lacks few and many, then the key is refused naming them and the rest accepted', () => {
      const result = check(
        { files, title: 'Files' },
        JSON.stringify({ files: '{count, plural, one {# plik} other {# pliki}}', title: 'Pliki' }),
        'pl',
      );
      expect(result.accepted).toEqual({ title: 'Pliki' });
      expect(result.problems).toEqual([
        {
          key: 'files',
          kind: 'plural-categories',
          gaps: [{ argument: 'count', type: 'cardinal', missing: ['few', 'many'] }],
          message: '{count, plural} lacks few, many (pl: one, few, many, other)',
        },
      ]);
    });

    it('when the plural has every Polish category, or a Japanese answer uses the argument directly, then it is accepted', () => {
      const polish = '{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}';
      expect(check({ files }, JSON.stringify({ files: polish }), 'pl').accepted).toEqual({ files: polish });
      expect(check({ files }, JSON.stringify({ files: '{count}個のファイル' }), 'ja').accepted).toEqual({
        files: '{count}個のファイル',
      });
    });

    it('when the answer does not parse where the source does, then the parser’s error is named, not a placeholder loss', () => {
      const result = check(
        { files },
        JSON.stringify({ files: '{count, plural, one {# Datei} other {# Dateien}' }),
      );
      expect(result.accepted).toEqual({});
      expect(result.problems).toEqual([
        expect.objectContaining({
          key: 'files',
          kind: 'icu-syntax',
          message: expect.stringContaining('does not parse as an ICU message, as its source does'),
        }),
      ]);
    });
  });

  describe('i18next plural groups, answered with the target’s forms (DESIGN §11)', () => {
    const source = {
      'cart.item_one': '{{count}} item',
      'cart.item_other': '{{count}} items',
      title: 'Cart',
    };
    const group = (locale: string): PluralGroupRequest => ({
      stem: 'cart.item',
      type: 'cardinal',
      sources: ['cart.item_one', 'cart.item_other'],
      forms: pluralCategories(locale).map((category) => ({ key: `cart.item_${category}`, category })),
    });
    const polish = {
      'cart.item_one': '{{count}} przedmiot',
      'cart.item_few': '{{count}} przedmioty',
      'cart.item_many': '{{count}} przedmiotów',
      'cart.item_other': '{{count}} przedmiotu',
      title: 'Koszyk',
    };
    const checkGroup = (answer: Record<string, unknown>, locale: 'pl' | 'de' | 'ja', from = source) => {
      const { accepted, problems } = checkAnswer(
        new Map(Object.entries(from)),
        JSON.stringify(answer),
        locale,
        [group(locale)],
      );
      return { accepted: Object.fromEntries(accepted), problems };
    };

    it('when a Polish answer holds every Polish form, then all are accepted', () => {
      expect(checkGroup(polish, 'pl')).toEqual({ accepted: polish, problems: [] });
    });

    it('when a form is missing, then the whole group is refused naming the category, and the other keys accepted', () => {
      const { 'cart.item_few': _few, ...withoutFew } = polish;
      const result = checkGroup(withoutFew, 'pl');
      expect(result.accepted).toEqual({ title: 'Koszyk' });
      expect(result.problems).toEqual([
        {
          key: 'cart.item_few',
          kind: 'missing',
          message: 'missing from the answer: the few form (pl: one, few, many, other)',
        },
      ]);
    });

    it('when the answer holds a form the target does not use, then it is named and the group refused', () => {
      const result = checkGroup(
        {
          'cart.item_one': '{{count}} Artikel',
          'cart.item_few': '{{count}} Artikel',
          'cart.item_other': '{{count}} Artikel',
          title: 'Korb',
        },
        'de',
      );
      expect(result.accepted).toEqual({ title: 'Korb' });
      expect(result.problems).toEqual([
        {
          key: 'cart.item_few',
          kind: 'unused-plural-form',
          message: 'a form de does not use (de: one, other)',
        },
      ]);

      const japanese = checkGroup(
        { 'cart.item_one': '{{count}}個', 'cart.item_other': '{{count}}個', title: 'カート' },
        'ja',
      );
      expect(japanese.problems.map((p) => [p.key, p.kind])).toEqual([
        ['cart.item_one', 'unused-plural-form'],
      ]);
      expect(checkGroup({ 'cart.item_other': '{{count}}個', title: 'カート' }, 'ja').accepted).toEqual({
        'cart.item_other': '{{count}}個',
        title: 'カート',
      });
    });

    it('when a form loses {{count}} that every source form has, or adds a placeholder, then the group is refused', () => {
      const result = checkGroup(
        { ...polish, 'cart.item_few': 'kilka przedmiotów', 'cart.item_many': '{{count}} {{n}} przedmiotów' },
        'pl',
      );
      expect(result.accepted).toEqual({ title: 'Koszyk' });
      expect(result.problems).toEqual([
        expect.objectContaining({ key: 'cart.item_few', kind: 'placeholders', missing: ['{{count}}'] }),
        expect.objectContaining({ key: 'cart.item_many', kind: 'placeholders', unexpected: ['{{n}}'] }),
      ]);
    });

    it('when the source leaves {{count}} out of a form, then any target form may leave it out', () => {
      const english = { ...source, 'cart.item_one': 'One item' };
      const answer = { ...polish, 'cart.item_one': 'Jeden przedmiot' };
      expect(checkGroup(answer, 'pl', english)).toEqual({ accepted: answer, problems: [] });
    });

    it('when a form does not parse as ICU where its source form of that category does, then the group is refused, as on upload', () => {
      const english = { ...source, 'cart.item_one': 'One item' };
      const result = checkGroup({ ...polish, 'cart.item_one': 'Jeden {przedmiot' }, 'pl', english);
      expect(result.accepted).toEqual({ title: 'Koszyk' });
      expect(result.problems).toEqual([
        expect.objectContaining({ key: 'cart.item_one', kind: 'icu-syntax' }),
      ]);
      // A plain-text source form lets its translation use i18next's {{count}}, never ICU (as on upload).
      expect(
        checkGroup({ ...polish, 'cart.item_one': '{{count}} przedmiot' }, 'pl', english).problems,
      ).toEqual([]);
    });

    it('when the answer is unreadable, then every target form is named', () => {
      const { problems } = checkAnswer(new Map(Object.entries(source)), 'not json', 'pl', [group('pl')]);
      expect(problems.map((p) => p.key)).toEqual([
        'cart.item_one',
        'cart.item_few',
        'cart.item_many',
        'cart.item_other',
        'title',
      ]);
    });
  });
});
