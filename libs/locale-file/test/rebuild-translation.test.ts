import { describe, expect, it } from 'vitest';
import { LayoutStep, parseSourceDocument, rebuildDocument, rebuildTranslation } from '@tolk/locale-file';
import { randomSourceText, seededRandom } from './source-builders.js';

function parse(json: string) {
  return parseSourceDocument(JSON.parse(json));
}

/** The translation of `json` with `translations` (key → value), as JSON text. */
function translate(json: string, translations: Record<string, string>): string {
  const valueOf = new Map(Object.entries(translations));
  return JSON.stringify(rebuildTranslation(parse(json), (key) => valueOf.get(key)));
}

describe('rebuildTranslation', () => {
  it('when every key is translated, then the file has the source shape without annotations or metadata', () => {
    const source =
      '{"@@locale":"en","title":"Hi","@title":{"description":"d"},"home":{"a":"A","b.c":"BC",' +
      '"list":["x",{"y":"Y"}],"@list":{"description":"group"}},"flat.key":"F","@@x":{"y":1}}';
    const parsed = parse(source);
    const translated = rebuildTranslation(parsed, (key) => `de:${key}`);

    expect(JSON.stringify(translated)).toBe(
      '{"title":"de:title","home":{"a":"de:home.a","b.c":"de:home.b.c",' +
        '"list":["de:home.list.0",{"y":"de:home.list.1.y"}]},"flat.key":"de:flat.key"}',
    );
  });

  it('when a locale is given and the source has @@locale, then the translation has the target locale in the same place', () => {
    const source =
      '{"title":"Hi","@@locale":"en","@title":{"description":"d"},"home":{"a":"A"},"@@x":{"y":1}}';
    const translated = rebuildTranslation(parse(source), (key) => `de:${key}`, { locale: 'de' });
    expect(JSON.stringify(translated)).toBe('{"title":"de:title","@@locale":"de","home":{"a":"de:home.a"}}');
    expect(JSON.stringify(rebuildTranslation(parse(source), () => undefined, { locale: 'de' }))).toBe(
      '{"@@locale":"de"}',
    );
  });

  it('when a locale is given and the source has no @@locale, then the translation has none', () => {
    const parsed = parse('{"@@x":"m","title":"Hi"}');
    expect(JSON.stringify(rebuildTranslation(parsed, (key) => key, { locale: 'de' }))).toBe(
      '{"title":"title"}',
    );
  });

  it('when annotations are asked for, then those of the keys and groups kept stay where they stood, with the metadata', () => {
    const source =
      '{"@@locale":"en","@title":{"description":"d"},"title":"Hi","gone":"G","@gone":{"description":"g"},' +
      '"home":{"a":"A","@a":{"placeholders":{"n":{"type":"int"}}}},"@home":{"description":"group"},' +
      '"away":{"b":"B"},"@away":{"description":"pruned"},"@@x":{"y":1}}';
    const translated = rebuildTranslation(
      parse(source),
      (key) => (key === 'gone' || key === 'away.b' ? undefined : `de:${key}`),
      { locale: 'de', annotations: true },
    );
    expect(JSON.stringify(translated)).toBe(
      '{"@@locale":"de","@title":{"description":"d"},"title":"de:title",' +
        '"home":{"a":"de:home.a","@a":{"placeholders":{"n":{"type":"int"}}}},"@home":{"description":"group"},' +
        '"@@x":{"y":1}}',
    );
  });

  it("when annotations are asked for and the values are the source's, then it is rebuildDocument", () => {
    const json = '{"@@locale":"en","a":"A","@a":{"description":"d"},"b":{"c":"C","@c":{"x":[1]}},"@@y":2}';
    const parsed = parse(json);
    const valueOf = new Map(parsed.keys.map((key, i) => [key, parsed.values[i]!]));
    const translated = rebuildTranslation(parsed, (key) => valueOf.get(key), {
      locale: 'en',
      annotations: true,
    });
    expect(JSON.stringify(translated)).toBe(JSON.stringify(rebuildDocument(parsed)));
  });

  it('when the values are those of the source, then it is rebuildDocument without annotations', () => {
    const json = '{"b":"B","10":"ten","2":"two","a":{"9":"n","x":["X","Y"]},"c.d":"CD"}';
    const parsed = parse(json);
    const valueOf = new Map(parsed.keys.map((key, i) => [key, parsed.values[i]!]));
    expect(JSON.stringify(rebuildTranslation(parsed, (key) => valueOf.get(key)))).toBe(
      JSON.stringify(rebuildDocument(parsed)),
    );
  });

  it('when translations were given in another order, then the source key order wins', () => {
    const source = '{"z":"Z","a":"A","m":{"y":"Y","b":"B"}}';
    expect(translate(source, { 'm.b': 'b', 'm.y': 'y', a: 'a', z: 'z' })).toBe(
      '{"z":"z","a":"a","m":{"y":"y","b":"b"}}',
    );
  });

  it('when some keys have no translation, then they are left out and empty objects are pruned', () => {
    const source = '{"a":"A","deep":{"er":{"est":"E"},"other":"O"},"gone":{"x":{"y":"Y"}},"b":"B"}';
    expect(translate(source, { b: 'b', 'deep.other': 'o' })).toBe('{"deep":{"other":"o"},"b":"b"}');
  });

  it('when nothing is translated, then the top-level object is empty', () => {
    expect(translate('{"a":"A","b":{"c":["C"]}}', {})).toBe('{}');
    expect(translate('{}', {})).toBe('{}');
  });

  it('when a translation is the empty string, then it is kept', () => {
    expect(translate('{"a":"A","b":"B"}', { a: '' })).toBe('{"a":""}');
  });

  it('when every element of an array is translated, then it stays an array', () => {
    expect(
      translate('{"steps":["one","two","three"]}', { 'steps.0': '1', 'steps.1': '2', 'steps.2': '3' }),
    ).toBe('{"steps":["1","2","3"]}');
  });

  it('when an array loses some elements, then it becomes an object keyed by the remaining indexes', () => {
    const source = '{"steps":["one","two","three"],"faq":[{"q":"Q","a":"A"},{"q":"Q2"}],"n":[["a","b"],"c"]}';
    const translated = translate(source, { 'steps.1': '2', 'steps.2': '3', 'faq.1.q': 'q2', 'n.0.1': 'b' });
    expect(translated).toBe('{"steps":{"1":"2","2":"3"},"faq":{"1":{"q":"q2"}},"n":{"0":{"1":"b"}}}');
  });

  it('when an array keeps all its elements but one of them loses keys, then it stays an array', () => {
    expect(translate('{"faq":[{"q":"Q","a":"A"},{"q":"Q2"}]}', { 'faq.0.q': 'q', 'faq.1.q': 'q2' })).toBe(
      '{"faq":[{"q":"q"},{"q":"q2"}]}',
    );
  });

  it('when keys are named __proto__, then they stay own data properties and prototypes are untouched', () => {
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype);
    const parsed = parse('{"__proto__":{"polluted":"P"},"x":{"__proto__":"X","constructor":"C"}}');
    const translated = rebuildTranslation(parsed, (key) => `de:${key}`);

    expect(Object.getPrototypeOf(translated)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(translated, '__proto__')?.value).toEqual({
      polluted: 'de:__proto__.polluted',
    });
    const x = translated.x as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(x, '__proto__')?.value).toBe('de:x.__proto__');
    expect(Object.getPrototypeOf(x)).toBe(Object.prototype);
    expect(x.constructor).toBe('de:x.constructor');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeBefore);
  });

  it('when the translation is rebuilt, then valueOf is asked once per source key, in source order', () => {
    const parsed = parse('{"b":"B","a":{"c":"C","@c":{"description":"d"}},"@@m":"x","d":["D"]}');
    const asked: string[] = [];
    rebuildTranslation(parsed, (key) => {
      asked.push(key);
      return undefined;
    });
    expect(asked).toEqual(['b', 'a.c', 'd.0']);
  });

  it('when the layout does not fit the keys, then it throws like rebuildDocument', () => {
    const parsed = parse('{"a":{"b":"x"},"c":"y"}');
    expect(() =>
      rebuildTranslation(
        { ...parsed, layout: { steps: [LayoutStep.openObject, 2], containerNames: ['a'] } },
        () => 'v',
      ),
    ).toThrow(/Source layout does not match its keys/);
  });

  it('when random sources are partly translated, then parsing the result gives exactly the translated keys and values', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = seededRandom(seed * 7919);
      const parsed = parse(randomSourceText(seed));
      const share = random();
      const translations = new Map<string, string>();
      for (const key of parsed.keys) if (random() < share) translations.set(key, `${key} → ${random()}`);

      const rebuilt = rebuildTranslation(parsed, (key) => translations.get(key));
      const reparsed = parseSourceDocument(JSON.parse(JSON.stringify(rebuilt)));

      const message = `seed ${seed}`;
      expect(reparsed.keys, message).toEqual(parsed.keys.filter((key) => translations.has(key)));
      expect(reparsed.values, message).toEqual(reparsed.keys.map((key) => translations.get(key)));
      expect(reparsed.annotations.size, message).toBe(0);
      expect(reparsed.metadata.size, message).toBe(0);
    }
  });
});
