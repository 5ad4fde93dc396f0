import { describe, expect, it } from 'vitest';
import { jsonTree, STRICT_JSON } from '../../src/formats/json-tree.js';

describe('jsonTree', () => {
  it('when the same text is parsed again (a catalog read for each of its locales), then its tree is the one already made', () => {
    const text = JSON.stringify({ strings: { hello: { localizations: { de: { value: 'Hallo' } } } } });
    const first = jsonTree(text);
    expect(first.tree?.type).toBe('object');
    expect(jsonTree(`${text}`).tree).toBe(first.tree);
  });

  it('when the text or the options differ, then it is parsed again, with its own errors', () => {
    const strict = jsonTree('{"a": 1,}');
    expect(strict.errors).not.toHaveLength(0);
    const lenient = jsonTree('{"a": 1,}', { allowTrailingComma: true });
    expect(lenient.errors).toHaveLength(0);
    expect(jsonTree('{"a": 2}', STRICT_JSON).tree?.children?.[0]?.children?.[1]?.value).toBe(2);
  });
});
