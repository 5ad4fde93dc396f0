import { describe, expect, it } from 'vitest';
import { valueLines } from '../../src/check/value-lines.js';

describe('valueLines', () => {
  it('when a JSON name has a dot that leaves an empty part (i18next keySeparator: false), then its key is found as the format keys it', () => {
    const text =
      '{\n  "Title": "Titel",\n  "Please paste your token.": "Bitte fügen Sie Ihr Token ein.",\n  "a..b": "c"\n}\n';
    const lines = valueLines(text, 'i18next', { locale: 'de' });
    expect(lines.lineOf('Please paste your token\u2024')).toBe(3);
    expect(lines.lineOf('a\u2024\u2024b')).toBe(4);
    expect(lines.has('Please paste your token.')).toBe(false);
  });
});
