/** A value's text as aapt2 reads it (escapes, quotes, whitespace) and as it is written back. */

const UNQUOTED_RUN = /[^\\"\s]+/y;
const QUOTED_RUN = /[^\\"]+/y;

/** aapt2's reading of a value's text: escapes, quotes, whitespace. */
export class AndroidText {
  private out = '';
  private pendingSpace = false;
  private quoted = false;

  text(data: string): void {
    for (let at = 0; at < data.length; at++) {
      // A run of plain characters goes in at once: one by one, a large file's values cost
      // gigabytes of string pieces before they are joined.
      const run = this.quoted ? QUOTED_RUN : UNQUOTED_RUN;
      run.lastIndex = at;
      const plain = run.exec(data);
      if (plain) {
        this.emit(plain[0]);
        at += plain[0].length - 1;
        continue;
      }
      const char = data[at]!;
      if (char === '\\' && at + 1 < data.length) {
        const next = data[++at]!;
        if (next === 'n') this.emit('\n');
        else if (next === 't') this.emit('\t');
        else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(data.slice(at + 1, at + 5))) {
          this.emit(String.fromCharCode(parseInt(data.slice(at + 1, at + 5), 16)));
          at += 4;
        } else this.emit(next);
      } else if (char === '"') this.quoted = !this.quoted;
      else if (!this.quoted && /\s/.test(char)) this.pendingSpace = this.out !== '';
      else this.emit(char);
    }
  }

  markup(source: string): void {
    this.emit(source);
  }

  private emit(chars: string): void {
    if (this.pendingSpace) this.out += ' ';
    this.pendingSpace = false;
    this.out += chars;
  }

  done(): string {
    return this.out;
  }
}

/** Inline markup in a value: kept as it is when written. */
const MARKUP = /<\/?[A-Za-z][\w:.-]*(?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*\/?>/g;

/** A value as the content of an element: Android's escapes, then XML's (or a CDATA section). */
export function escapeValue(value: string, cdata: boolean): string {
  // Spaces aapt2 would collapse or trim are kept by quoting the whole value.
  const needsQuotes = /^ | $| {2}/.test(value);
  const android = (part: string, first: boolean) => {
    let out = part
      .replaceAll('\\', '\\\\')
      .replaceAll('"', '\\"')
      .replaceAll("'", "\\'")
      .replaceAll('\n', '\\n')
      .replaceAll('\t', '\\t');
    if (first && (out.startsWith('@') || out.startsWith('?'))) out = `\\${out}`;
    return out;
  };
  if (cdata) {
    const body = android(value, true).replaceAll(']]>', ']]]]><![CDATA[>');
    return `<![CDATA[${needsQuotes ? `"${body}"` : body}]]>`;
  }
  let out = '';
  let at = 0;
  const xml = (part: string) =>
    part.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll(']]>', ']]&gt;');
  for (const match of value.matchAll(MARKUP)) {
    out += xml(android(value.slice(at, match.index), at === 0)) + match[0];
    at = match.index + match[0].length;
  }
  out += xml(android(value.slice(at), at === 0));
  return needsQuotes ? `"${out}"` : out;
}
