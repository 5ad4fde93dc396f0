/**
 * Whether the tags of a text open and close in order (`<b><i>…</i></b>`), for the findings of a
 * translation (findings.ts, which the server and `tolk check` share): the placeholder check
 * compares which tags a translation has as a set, so `</b>Save<b>` or `<b><i>…</b></i>` keep the
 * source's set and still break the markup. Written
 * here, not taken from an HTML parser: those repair what they read (that is their job) and do
 * not say what was wrong; this only reads tag names, as the placeholder scanner does.
 *
 * A tag is `<name …>`, `</name>` or `<name …/>` with a name of letters, digits, `_`, `.`, `:`
 * or `-` (react-i18next's `<0>` included); `a < b` is text. HTML's void elements (`<br>`,
 * `<img …>`) need no closing tag.
 */

const TAG = /<(\/?)([\p{L}\p{N}][\p{L}\p{N}_.:-]*)((?:\s(?:[^<>"']|"[^"]*"|'[^']*')*)?)>/gu;

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/** What is wrong with the nesting of `text`'s tags, or undefined when they open and close in order. */
export function markupProblem(text: string): string | undefined {
  if (!text.includes('<')) return undefined;
  const open: string[] = [];
  for (const match of text.matchAll(TAG)) {
    const [, closing, name, rest] = match as unknown as [string, string, string, string];
    if (rest.trimEnd().endsWith('/')) continue;
    if (!closing) {
      if (!VOID_ELEMENTS.has(name.toLowerCase())) open.push(name);
      continue;
    }
    if (VOID_ELEMENTS.has(name.toLowerCase()) && !open.includes(name)) continue;
    const last = open.pop();
    if (last === undefined) return `</${name}> closes no open tag`;
    if (last !== name) return `</${name}> closes <${last}>`;
  }
  if (open.length > 0) return `<${open.at(-1)}> is never closed`;
  return undefined;
}
