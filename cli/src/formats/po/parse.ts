/**
 * A catalog cut into its parts, line by line: each entry's lines (parsed by `gettext-parser`) and
 * the lines between entries; its header read, and its findings reported at their lines.
 */
import { po as gettextPo, type PoEntry } from 'gettext-parser';
import { addFinding, FormatError, type FileFinding, type ReadInput } from '../format.js';
import type { Interpolation } from '../plural-message.js';
import { keyOfName, nameProblem } from '../key-names.js';
import { decodeUtf8 } from '../utf8.js';
import { parsePluralForms } from './language.js';

/** ICU arguments of a branch are `{name}` (python-brace-format); printf stays text. */
export const INTERPOLATION: Interpolation = { prefix: '' };
const CONTEXT_SEPARATOR = '\u0004';

/** A line of an entry that is not a comment: a keyword and its string, or a continued string. */
const PO_LINE = /^\s*(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"(?:[^"\\]|\\.)*"\s*$/;

/** One part of the file: an entry's lines, or lines between entries (blank, obsolete `#~`). */
export type Part =
  | {
      kind: 'entry';
      lines: string[];
      line: number;
      entry: PoEntry;
      key: string;
      /** An entry Tolk does not read (a second one of a msgid, a msgid that cannot be a key). */
      unread?: boolean;
    }
  | { kind: 'text'; lines: string[] };

export type Parsed = {
  parts: Part[];
  header?: Extract<Part, { kind: 'entry' }>;
  headers: Map<string, string>;
  /** The header's `Plural-Forms` is there and broken: which form is which is unknown. */
  brokenPluralForms?: { line: number };
  eol: string;
};

/** Where a file's findings go while it is read: nowhere for a file a target is written from. */
type Report = Pick<ReadInput, 'path' | 'findings'> | undefined;

export function report(
  sink: Report,
  key: string | null,
  kind: FileFinding['kind'],
  severity: FileFinding['severity'],
  message: string,
  line: number,
): void {
  if (sink) addFinding(sink, { key, kind, severity, message, line, column: 1 });
}

export function parse(bytes: Buffer, path: string, sink?: Report): Parsed {
  const text = decodeUtf8(bytes, path, 'gettext catalogs Tolk reads are UTF-8 (msgconv --to-code=UTF-8)');
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const parts: Part[] = [];
  let current: { lines: string[]; line: number; sawMsgstr: boolean } | undefined;
  let between: string[] = [];
  const flush = () => {
    if (!current) return;
    const block = current.lines.join('\n');
    let data;
    try {
      data = gettextPo.parse(block);
    } catch (error) {
      const inner = /at line (\d+)/.exec((error as Error).message);
      const line = current.line + (inner ? Number(inner[1]) - 1 : 0);
      throw new FormatError(path, (error as Error).message.replace(/ at line \d+/, ''), { line, column: 1 });
    }
    const entries = Object.values(data.translations).flatMap((byId) => Object.values(byId));
    const entry =
      entries.find((candidate) => candidate.msgid !== '' || candidate.msgctxt !== undefined) ?? entries[0];
    if (!entry || !Array.isArray(entry.msgstr)) {
      throw new FormatError(path, 'an entry without msgid or msgstr', { line: current.line, column: 1 });
    }
    parts.push({ kind: 'entry', lines: current.lines, line: current.line, entry, key: '' });
    current = undefined;
  };
  lines.forEach((line, index) => {
    const obsolete = line.startsWith('#~');
    const blank = line.trim() === '';
    const startsEntry = /^(#|msgctxt\b|msgid\b)/.test(line) && !obsolete;
    if (blank || obsolete) {
      flush();
      between.push(line);
      return;
    }
    if (!line.startsWith('#') && !PO_LINE.test(line)) {
      throw new FormatError(
        path,
        `not a PO line: ${JSON.stringify(line)} (a keyword and a quoted string, a continued "string", or a # comment)`,
        { line: index + 1, column: 1 },
      );
    }
    if (current && current.sawMsgstr && startsEntry) flush();
    if (!current) {
      if (between.length > 0) parts.push({ kind: 'text', lines: between });
      between = [];
      current = { lines: [], line: index + 1, sawMsgstr: false };
    }
    current.lines.push(line);
    if (line.startsWith('msgstr')) current.sawMsgstr = true;
  });
  flush();
  if (between.length > 0) parts.push({ kind: 'text', lines: between });
  const parsed: Parsed = { parts, headers: new Map(), eol };
  const seen = new Map<string, number>();
  for (const part of parts) {
    if (part.kind !== 'entry') continue;
    const { entry } = part;
    const msgidLine = part.line + part.lines.findIndex((line) => line.startsWith('msgid'));
    if (entry.msgid === '' && entry.msgctxt === undefined) {
      if (parsed.header || part !== parts.find((candidate) => candidate.kind === 'entry')) {
        report(
          sink,
          null,
          'format',
          'warning',
          'an entry with an empty msgid that is not the header (the first entry); left out',
          msgidLine,
        );
        part.unread = true;
        continue;
      }
      parsed.header = part;
      readHeader(parsed, part, path, sink);
      continue;
    }
    const key = keyOf(entry, msgidLine, sink);
    if (key === undefined) {
      part.unread = true;
      continue;
    }
    part.key = key;
    const first = seen.get(part.key);
    if (first !== undefined) {
      const what =
        entry.msgctxt === undefined
          ? `the msgid ${JSON.stringify(entry.msgid)}`
          : `the msgid ${JSON.stringify(entry.msgid)} with msgctxt ${JSON.stringify(entry.msgctxt)}`;
      report(
        sink,
        part.key,
        'duplicate',
        'error',
        `${what} is given twice (lines ${first}, ${msgidLine}); the first is kept, and msgfmt refuses the catalog until one goes`,
        msgidLine,
      );
      part.unread = true;
      continue;
    }
    seen.set(part.key, msgidLine);
  }
  return parsed;
}

function readHeader(
  parsed: Parsed,
  part: Extract<Part, { kind: 'entry' }>,
  path: string,
  sink: Report,
): void {
  const msgstrAt = part.line + part.lines.findIndex((line) => line.startsWith('msgstr'));
  const body = part.entry.msgstr[0] ?? '';
  const fields = body.split('\n');
  if (fields.at(-1) === '') fields.pop();
  const lineOf = (index: number) =>
    msgstrAt + index + (part.lines[msgstrAt - part.line] === 'msgstr ""' ? 1 : 0);
  fields.forEach((field, index) => {
    const match = /^([\w-]+):\s*(.*)$/.exec(field);
    if (!match) {
      report(
        sink,
        null,
        'format',
        'warning',
        `a header line ${JSON.stringify(field)} is not a "Name: value" line (each header field ends with \\n); left out`,
        lineOf(index),
      );
      return;
    }
    parsed.headers.set(match[1]!, match[2]!.trim());
  });
  const charset = /charset=([^\s;]+)/i.exec(parsed.headers.get('Content-Type') ?? '')?.[1];
  if (charset && !/^(utf-?8|charset)$/i.test(charset)) {
    throw new FormatError(
      path,
      `broken header: the charset is ${charset}; Tolk reads UTF-8 catalogs (msgconv --to-code=UTF-8)`,
      {
        line: msgstrAt,
        column: 1,
      },
    );
  }
  const pluralForms = parsed.headers.get('Plural-Forms');
  // A template's `nplurals=INTEGER; plural=EXPRESSION;` is a placeholder, not a broken header.
  const placeholder = pluralForms !== undefined && /INTEGER|EXPRESSION/.test(pluralForms);
  if (pluralForms !== undefined && pluralForms !== '' && !placeholder && !parsePluralForms(pluralForms)) {
    const at = fields.findIndex((field) => field.startsWith('Plural-Forms'));
    parsed.brokenPluralForms = { line: lineOf(Math.max(at, 0)) };
    report(
      sink,
      null,
      'plural',
      'error',
      `Plural-Forms ${JSON.stringify(pluralForms)} is not "nplurals=N; plural=EXPRESSION;" (msgfmt refuses it); ` +
        'which form of a plural is which is unknown, so the plural entries are left out',
      parsed.brokenPluralForms.line,
    );
  }
}

function keyOf(entry: PoEntry, line: number, sink: Report): string | undefined {
  const name =
    entry.msgctxt === undefined ? entry.msgid : `${entry.msgctxt}${CONTEXT_SEPARATOR}${entry.msgid}`;
  const problem = [entry.msgid, entry.msgctxt ?? ''].some((text) => text.includes(CONTEXT_SEPARATOR))
    ? "holds U+0004, gettext's separator of a context"
    : nameProblem(name);
  if (problem) {
    report(
      sink,
      null,
      'format',
      'warning',
      `the msgid ${JSON.stringify(entry.msgid)} cannot be a key: it ${problem}; left out`,
      line,
    );
    return undefined;
  }
  return keyOfName(name);
}

export const isFuzzy = (entry: PoEntry) =>
  (entry.comments?.flag ?? '').split(',').some((flag) => flag.trim() === 'fuzzy');

/** An entry gettext uses at run time: not fuzzy, with a msgstr. */
export const isTranslated = (entry: PoEntry) => !isFuzzy(entry) && entry.msgstr.some((text) => text !== '');

export function safeParse(bytes: Buffer): Parsed | undefined {
  try {
    return parse(bytes, '(target)');
  } catch {
    return undefined;
  }
}
