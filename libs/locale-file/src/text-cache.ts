const MAX_CACHED_LENGTH = 2048;

/**
 * A cache of what is worked out from a text, by the text: every target locale of a source version
 * is judged against the same source texts, so each is parsed or scanned once, not once per locale.
 * What it holds is read only. Bounded by the characters of its texts: emptied when full. A long
 * text is not kept: a Map tells long strings apart only by comparing them whole (their hash is of
 * their length), and the work on one is large beside a lookup anyway.
 */
export function textCache<T>(maxCharacters: number): (text: string, compute: (text: string) => T) => T {
  const cache = new Map<string, T>();
  let characters = 0;
  return (text, compute) => {
    if (text.length > MAX_CACHED_LENGTH) return compute(text);
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
