/** Writing XLIFF text: values with the source's inline codes, attributes of a tag, edits by offset. */
import { type Code, type Range, TOKEN } from './parse.js';

function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A value as XLIFF content: the source's codes for their tokens, the rest escaped. */
export function encode(value: string, codes: readonly Code[]): string {
  const markup = new Map<string, string>();
  for (const code of codes) {
    markup.set(code.token, code.open);
    if (code.closeToken) markup.set(code.closeToken, code.close ?? '');
  }
  let out = '';
  let last = 0;
  for (const match of value.matchAll(new RegExp(TOKEN.source, 'g'))) {
    const raw = markup.get(match[0]);
    if (raw === undefined) continue;
    out += escapeText(value.slice(last, match.index)) + raw;
    last = match.index + match[0].length;
  }
  return out + escapeText(value.slice(last));
}

/** A start tag with `name="value"` set (replaced, or added before its end). */
export function withAttribute(tag: string, name: string, value: string): string {
  const existing = new RegExp(`(\\s${name}\\s*=\\s*)("[^"]*"|'[^']*')`);
  if (existing.test(tag)) return tag.replace(existing, (_, head: string) => `${head}"${value}"`);
  const close = tag.endsWith('/>') ? 2 : 1;
  return `${tag.slice(0, -close).trimEnd()} ${name}="${value}"${tag.slice(-close)}`;
}

export type Edit = Range & { replacement: string };

/**
 * The text with each edit's range replaced, in one pass: the pieces between the edits joined
 * once, not the whole text copied again for each edit (a file of thousands of units has as
 * many edits). Edits that start at the same place are applied last given, first in the text.
 */
export function applyEdits(text: string, edits: readonly (Range & { replacement: string })[]): string {
  const ordered = edits
    .map((edit, index) => ({ edit, index }))
    .sort((a, b) => a.edit.start - b.edit.start || b.index - a.index);
  const pieces: string[] = [];
  let cursor = 0;
  for (const { edit } of ordered) {
    pieces.push(text.slice(cursor, Math.max(cursor, edit.start)), edit.replacement);
    cursor = Math.max(cursor, edit.end);
  }
  pieces.push(text.slice(cursor));
  return pieces.join('');
}
