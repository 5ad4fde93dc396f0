import { SaxesParser } from 'saxes';

/** How far into a file the elements that declare its language are looked for. */
const HEAD = 64 * 1024;

/**
 * The first value in the head of an XML file of one of `wanted`'s element–attribute pairs
 * (XLIFF's `<file source-language>`, Android's `<resources tools:locale>`), or undefined when the
 * head has none or is not XML. Read with `saxes` (no DTD, no entity of one).
 */
export function firstAttribute(
  bytes: Buffer,
  wanted: readonly [element: string, attribute: string][],
): string | undefined {
  const parser = new SaxesParser();
  let found: string | undefined;
  parser.on('opentag', (tag) => {
    for (const [element, attribute] of wanted) {
      const value = tag.name === element ? tag.attributes[attribute] : undefined;
      if (found === undefined && typeof value === 'string') found = value;
    }
  });
  const text = bytes.subarray(0, HEAD).toString('utf8');
  try {
    // In pieces, so that what the head declares is found before a later piece fails.
    for (let at = 0; at < text.length && found === undefined; at += 4096)
      parser.write(text.slice(at, at + 4096));
  } catch {
    return found;
  }
  return found;
}
