import { describe, expect, it } from 'vitest';
import { checkAnswer } from '../../src/ai/check-answer.js';

function check(requested: Record<string, string>, answer: string) {
  const { accepted, problems } = checkAnswer(new Map(Object.entries(requested)), answer);
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
});
