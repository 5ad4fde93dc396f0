/**
 * A cache of what is worked out from a text, by the text: every target locale of a source version
 * is judged against the same source texts, so each is parsed or scanned once, not once per locale.
 * What it holds is read only. Bounded by the characters of its texts: emptied when full.
 */
export function textCache<T>(maxCharacters: number): (text: string, compute: (text: string) => T) => T {
  const cache = new Map<string, T>();
  let characters = 0;
  return (text, compute) => {
    let value = cache.get(text);
    if (value === undefined) {
      value = compute(text);
      if (characters + text.length > maxCharacters) {
        cache.clear();
        characters = 0;
      }
      cache.set(text, value);
      characters += text.length;
    }
    return value;
  };
}
