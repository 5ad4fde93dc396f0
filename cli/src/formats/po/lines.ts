/** An entry's lines as gettext's tools write them: msgstrs escaped and wrapped, the header's fields. */
import { type Parsed, type Part, isFuzzy } from './parse.js';

/** The blocks of `parts` joined, each left-out entry's (an empty block) separator line dropped. */
export function withoutSeparatorsOfLeftOut(parts: readonly Part[], out: readonly string[][]): string[] {
  const lines: string[] = [];
  for (let at = 0; at < out.length; at++) {
    const block = out[at]!;
    const part = parts[at]!;
    if (part.kind === 'text' && at > 0 && out[at - 1]!.length === 0 && parts[at - 1]!.kind === 'entry') {
      lines.push(...block.slice(1));
    } else lines.push(...block);
  }
  return lines;
}

/** `PO-Revision-Date` and `Last-Translator` as a translator's editor sets them (`revisionHeader`). */
export type RevisionFields = { 'PO-Revision-Date': string; 'Last-Translator': string };

export function revisionFields(now = new Date()): RevisionFields {
  const iso = now.toISOString();
  return { 'PO-Revision-Date': `${iso.slice(0, 10)} ${iso.slice(11, 16)}+0000`, 'Last-Translator': 'Tolk' };
}

/**
 * The template's header for a new target: `Language` and `Plural-Forms` of the target, `fuzzy`
 * taken off. (A target on disk keeps its own: headerInPlace.)
 */
export function headerLines(
  part: Extract<Part, { kind: 'entry' }>,
  parsed: Parsed,
  spelled: string,
  pluralForms?: string,
  revision?: RevisionFields,
): string[] {
  const fields = [...parsed.headers.entries()];
  const set = (name: string, value: string) => {
    const at = fields.findIndex(([field]) => field === name);
    if (at === -1) fields.push([name, value]);
    else fields[at] = [name, value];
  };
  const unchanged =
    parsed.headers.get('Language') === spelled &&
    (pluralForms === undefined || parsed.headers.get('Plural-Forms') === pluralForms) &&
    !isFuzzy(part.entry) &&
    !revision;
  if (unchanged) return part.lines;
  for (const [name, value] of Object.entries(revision ?? {})) set(name, value);
  set('Language', spelled);
  if (pluralForms) set('Plural-Forms', pluralForms);
  const contentType = fields.find(([name]) => name === 'Content-Type')?.[1];
  if (!contentType || /charset=CHARSET/.test(contentType)) set('Content-Type', 'text/plain; charset=UTF-8');
  const body = fields.map(([name, value]) => `${name}: ${value}\n`).join('');
  return entryLines(part, [body], true);
}

/** The entry's lines with other msgstr lines (and no `fuzzy` flag). */
export function entryLines(
  part: Extract<Part, { kind: 'entry' }>,
  msgstr: string[],
  header = false,
): string[] {
  const lines: string[] = [];
  let inMsgstr = false;
  for (const line of part.lines) {
    if (line.startsWith('#,')) {
      const flags = line
        .slice(2)
        .split(',')
        .map((flag) => flag.trim())
        .filter((flag) => flag !== '' && flag !== 'fuzzy');
      if (flags.length > 0) lines.push(`#, ${flags.join(', ')}`);
      continue;
    }
    if (line.startsWith('msgstr')) {
      if (!inMsgstr) {
        inMsgstr = true;
        if (part.entry.msgid_plural === undefined) lines.push(...stringLines('msgstr', msgstr[0]!, header));
        else msgstr.forEach((text, index) => lines.push(...stringLines(`msgstr[${index}]`, text, false)));
      }
      continue;
    }
    if (inMsgstr && line.startsWith('"')) continue;
    if (!line.startsWith('"')) inMsgstr = false;
    lines.push(line);
  }
  return lines;
}

function escapePo(text: string): string {
  return text
    .replaceAll('\\', '\\\\')
    .replaceAll('"', '\\"')
    .replaceAll('\t', '\\t')
    .replaceAll('\r', '\\r')
    .replaceAll('\n', '\\n');
}

/**
 * A string as gettext's tools write it: on the keyword's line when it fits in 79 columns and
 * has no inner line break; else `""` and then one line per `\n`, wrapped at spaces to 79.
 */
export function stringLines(keyword: string, text: string, header: boolean): string[] {
  const single = `${keyword} "${escapePo(text)}"`;
  const inner = text.indexOf('\n');
  if (!header && single.length <= 79 && (inner === -1 || inner === text.length - 1)) return [single];
  const lines = [`${keyword} ""`];
  for (const piece of text.split(/(?<=\n)/)) {
    let rest = escapePo(piece);
    while (rest.length > 77) {
      let cut = rest.lastIndexOf(' ', 76);
      if (cut <= 0) cut = 76;
      else cut += 1;
      // Never between a backslash and the character it escapes.
      let backslashes = 0;
      while (rest[cut - 1 - backslashes] === '\\') backslashes++;
      if (backslashes % 2 === 1) cut -= 1;
      lines.push(`"${rest.slice(0, cut)}"`);
      rest = rest.slice(cut);
    }
    if (rest !== '') lines.push(`"${rest}"`);
  }
  return lines;
}
