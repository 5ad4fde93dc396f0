/**
 * A JSON text's syntax tree (jsonc-parser's), kept for the text last parsed: a file that holds
 * every locale (an Xcode String Catalog) is read once per locale by `check`, and by `translate`
 * and `pull` as the target read, the source of the write and the file on disk it writes over,
 * the same text each time. Trees are read, never changed.
 */
import { parseTree, type Node, type ParseError, type ParseOptions } from 'jsonc-parser';

/** Strict JSON: no comments, no trailing commas (what Xcode and Foundation read). */
export const STRICT_JSON: ParseOptions = { disallowComments: true, allowTrailingComma: false };

let last: { text: string; options: ParseOptions; tree: Node | undefined; errors: ParseError[] } | undefined;

/** The tree of `text` and the syntax errors found in it (jsonc-parser's `parseTree`). */
export function jsonTree(
  text: string,
  options: ParseOptions = STRICT_JSON,
): { tree: Node | undefined; errors: readonly ParseError[] } {
  if (last && last.options === options && last.text === text) return last;
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, options);
  last = { text, options, tree, errors };
  return last;
}
