/**
 * `po`: a gettext catalog (`messages.pot` as the source, or a source-language `en.po`; targets
 * `pt_BR.po`), DESIGN §12.
 *
 * Each entry is parsed with `gettext-parser` (escapes, continued strings, comments, flags); the
 * file is cut into entries here, line by line, so that a target keeps the source's lines: its
 * comments, references, flags, wrapping and order. `gettext-parser`'s compiler would regroup
 * entries by context, move `#.` below `#:` and rewrap every string, so it is not used to write.
 *
 * - Keys: the msgid, or `msgctxt` U+0004 msgid (gettext's own separator) when there is a context.
 *   A dot the server's dot-path cannot hold (`Saved.`, `...`) and a final i18next plural suffix
 *   (`items_one`) are escaped in the key as for every free-text format (`key-names.ts`); a msgid
 *   holding U+0004 or the escapes' characters itself, or starting with `@` (an annotation's
 *   mark), is refused.
 * - Values: the msgstr when there is one (and the entry is not `#, fuzzy`); otherwise the msgid
 *   when the file is a template (a `.pot`, or a header with no `Language`) or the project's source
 *   (Django's `locale/en/LC_MESSAGES/django.po`, its msgstrs empty); otherwise none.
 * - `#.` and `#` comments are the key's description; `#:` references and other flags are kept.
 * - `msgid_plural`: an ICU plural (`one` = msgid, `other` = msgid_plural, printf `%d` kept as
 *   text); in a target, `msgstr[n]` in the order of the target language's `Plural-Forms`.
 *   The `Plural-Forms` header is the target file's own when it has one, else gettext's for the
 *   language (PLURAL_FORMS below, from the gettext manual's table and CLDR). Index `n` takes the
 *   CLDR category `Intl.PluralRules` gives the first count 0..1000 the expression sends to `n`
 *   (the mapping is computed, so it follows the expression, whatever its order).
 * - Targets: `Language: pt_BR` and `Plural-Forms` set in the header; entries with no value left
 *   out; `fuzzy` removed from the entries Tolk writes.
 * - Round trip: a source-language PO written with its own values gives back its bytes (line
 *   ends, wrapping, comments); an entry whose value changed gets its msgstr lines rewritten,
 *   wrapped at 79 columns as gettext's tools wrap. A POT cannot come back as itself: a target
 *   has msgstrs, and its header gets `Language` and `Plural-Forms`.
 * - An ICU `#` in a plural branch is written `{count}` (gettext has no such sign).
 * - Untranslated: an empty msgstr and a `#, fuzzy` entry (gettext uses neither at run time) have
 *   no value in a target; a plural's empty `msgstr[n]` is a form it lacks.
 * - Findings, each at its line, the rest of the file read (DESIGN §15): an entry given twice (same
 *   msgctxt and msgid; the first is kept, as `msguniq --use-first`; msgfmt refuses the catalog,
 *   so it is an error), a header line that is not `Name: value` (left out), a `Plural-Forms`
 *   with no `nplurals` and `plural` or one that does not evaluate (the plural entries are then
 *   left out: which form is which is unknown), a plural whose `other` form is empty, a msgid that
 *   cannot be a key.
 * - Refused (the file does not parse): a PO syntax error, a charset other than UTF-8, bytes that
 *   are not UTF-8 (UTF-16, binary), each with its line.
 */
import { parseTargetLocale } from '@tolk/contracts';
import { pluralCategories, type PluralCategory } from '@tolk/locale-file';
import { po as gettextPo, type PoEntry } from 'gettext-parser';
import { bcp47Spelling } from './bcp47-spelling.js';
import {
  addFinding,
  FormatError,
  keepsUnwritten,
  type FileFinding,
  type LocaleFormat,
  type ReadInput,
  type WriteInput,
} from './format.js';
import { icuPluralMessage, pluralBranches, type Interpolation } from './plural-message.js';
import { keyOfName, nameProblem } from './key-names.js';
import { decodeUtf8 } from './utf8.js';
import { nearest } from './nearest.js';

const spelling = bcp47Spelling('_');

export const poFormat: LocaleFormat = {
  name: 'po',
  extensions: ['.po', '.pot'],
  spellLocale: spelling.spellLocale,
  readLocale: spelling.readLocale,
  read: readPo,
  write: writePo,
};

/** ICU arguments of a branch are `{name}` (python-brace-format); printf stays text. */
const INTERPOLATION: Interpolation = { prefix: '' };
const CONTEXT_SEPARATOR = '\u0004';

/** gettext's Plural-Forms of languages whose CLDR categories are more than `other`. */
const PLURAL_FORMS: Record<string, string> = {
  ...Object.fromEntries(
    ['ja', 'ko', 'zh', 'vi', 'th', 'id', 'ms', 'lo', 'my', 'km', 'yue'].map((l) => [
      l,
      'nplurals=1; plural=0;',
    ]),
  ),
  ...Object.fromEntries(
    [
      'en',
      'de',
      'nl',
      'sv',
      'da',
      'nb',
      'nn',
      'no',
      'fi',
      'et',
      'it',
      'es',
      'el',
      'hu',
      'bg',
      'tr',
      'ca',
      'eu',
      'gl',
      'af',
      'sq',
      'az',
      'ka',
      'kk',
      'ky',
      'mn',
      'ur',
      'sw',
      'ta',
      'te',
      'ml',
      'kn',
      'mr',
      'ne',
      'or',
      'pa',
      'gu',
      'as',
      'ps',
      'uz',
      'fy',
      'lb',
      'eo',
      'nl',
      'pt-PT',
    ].map((l) => [l, 'nplurals=2; plural=(n != 1);']),
  ),
  ...Object.fromEntries(
    ['fr', 'pt', 'hi', 'bn', 'fa', 'am', 'hy', 'zu'].map((l) => [l, 'nplurals=2; plural=(n > 1);']),
  ),
  is: 'nplurals=2; plural=(n%10 != 1 || n%100 == 11);',
  mk: 'nplurals=2; plural=(n%10 != 1 || n%100 == 11);',
  pl: 'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  ru: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  uk: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  be: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  hr: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  sr: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  bs: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
  cs: 'nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);',
  sk: 'nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);',
  lt: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);',
  lv: 'nplurals=3; plural=(n%10==0 || (n%100>=11 && n%100<=19) ? 0 : n%10==1 && n%100!=11 ? 1 : 2);',
  ro: 'nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100>0 && n%100<20)) ? 1 : 2);',
  he: 'nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);',
  sl: 'nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);',
  ga: 'nplurals=5; plural=(n==1 ? 0 : n==2 ? 1 : n>=3 && n<=6 ? 2 : n>=7 && n<=10 ? 3 : 4);',
  cy: 'nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n==3 ? 3 : n==6 ? 4 : 5);',
  ar: 'nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);',
};

/** A line of an entry that is not a comment: a keyword and its string, or a continued string. */
const PO_LINE = /^\s*(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"(?:[^"\\]|\\.)*"\s*$/;

/** One part of the file: an entry's lines, or lines between entries (blank, obsolete `#~`). */
type Part =
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

type Parsed = {
  parts: Part[];
  header?: Extract<Part, { kind: 'entry' }>;
  headers: Map<string, string>;
  /** The header's `Plural-Forms` is there and broken: which form is which is unknown. */
  brokenPluralForms?: { line: number };
  eol: string;
};

/** Where a file's findings go while it is read: nowhere for a file a target is written from. */
type Report = Pick<ReadInput, 'path' | 'findings'> | undefined;

function report(
  sink: Report,
  key: string | null,
  kind: FileFinding['kind'],
  severity: FileFinding['severity'],
  message: string,
  line: number,
): void {
  if (sink) addFinding(sink, { key, kind, severity, message, line, column: 1 });
}

function parse(bytes: Buffer, path: string, sink?: Report): Parsed {
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

const isFuzzy = (entry: PoEntry) =>
  (entry.comments?.flag ?? '').split(',').some((flag) => flag.trim() === 'fuzzy');

function readPo(input: ReadInput): Record<string, unknown> {
  const parsed = parse(input.bytes, input.path, input);
  const template = input.path.endsWith('.pot') || !parsed.headers.get('Language') || input.source === true;
  const pluralForms = parsePluralForms(parsed.headers.get('Plural-Forms') ?? '');
  const document: Record<string, unknown> = {};
  for (const part of parsed.parts) {
    if (part.kind !== 'entry' || part === parsed.header || part.unread) continue;
    const { entry } = part;
    const translated = !isFuzzy(entry) && entry.msgstr.some((text) => text !== '');
    let value: string | undefined;
    if (entry.msgid_plural !== undefined) {
      if (parsed.brokenPluralForms && translated) value = undefined;
      else if (translated && pluralForms) {
        const categories = indexCategories(pluralForms, input.locale);
        const branches: [PluralCategory, string][] = [];
        categories.forEach((category, index) => {
          const text = entry.msgstr[index] ?? '';
          // An empty form is one gettext shows the msgid for: not translated.
          if (text !== '' && !branches.some(([seen]) => seen === category)) branches.push([category, text]);
        });
        // gettext's forms of some languages have no `other` (Polish: integers only); one that has
        // it and leaves it empty shows the msgid_plural for most counts.
        if (categories.includes('other') && !branches.some(([category]) => category === 'other')) {
          report(
            input,
            part.key,
            'plural',
            'error',
            `msgstr[${categories.lastIndexOf('other')}], the "other" form (${input.locale}), is empty; gettext shows the msgid_plural for it`,
            part.line +
              Math.max(
                part.lines.findIndex((line) => line.startsWith('msgstr')),
                0,
              ),
          );
        }
        value = icuPluralMessage('count', sortCategories(branches), INTERPOLATION);
      } else if (template || translated) {
        value = icuPluralMessage(
          'count',
          [
            ['one', translated ? entry.msgstr[0]! : entry.msgid],
            ['other', translated ? (entry.msgstr[1] ?? entry.msgstr[0]!) : entry.msgid_plural],
          ],
          INTERPOLATION,
        );
      }
    } else if (translated) value = entry.msgstr[0];
    else if (template) value = entry.msgid;
    if (value === undefined) continue;
    define(document, part.key, value);
    const description = [entry.comments?.translator, entry.comments?.extracted]
      .filter((text): text is string => !!text && text.trim() !== '')
      .join('\n');
    if (description) define(document, `@${part.key}`, { description });
  }
  return document;
}

function sortCategories(branches: [PluralCategory, string][]): [PluralCategory, string][] {
  const order: PluralCategory[] = ['zero', 'one', 'two', 'few', 'many', 'other'];
  return branches.sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
}

function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

type PluralForms = { nplurals: number; plural: (n: number) => number; text: string };

/** `nplurals=N; plural=EXPR;`, the expression evaluated as C (only integer arithmetic, n). */
export function parsePluralForms(text: string): PluralForms | undefined {
  const match = /^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+);?\s*$/.exec(text);
  if (!match) return undefined;
  const expression = match[2]!;
  // Only `n`, digits and C's operators (no `/`: C's is integer division, JavaScript's is not).
  if (!/^[\sn0-9()!=<>&|?:%+\-*]*$/.test(expression)) return undefined;
  let evaluate: (n: number) => unknown;
  try {
    evaluate = new Function('n', `"use strict"; return (${expression});`) as (n: number) => unknown;
    evaluate(1);
  } catch {
    return undefined;
  }
  return { nplurals: Number(match[1]), plural: (n) => Number(evaluate(n)), text: text.trim() };
}

/**
 * The CLDR category of each gettext index: the category `Intl.PluralRules` gives the first count
 * of 0..1000 the expression sends to that index (`other` for an index no count reaches).
 */
export function indexCategories(forms: PluralForms, locale: string): PluralCategory[] {
  const rules = new Intl.PluralRules(locale);
  const categories: (PluralCategory | undefined)[] = Array.from({ length: forms.nplurals }, () => undefined);
  for (let n = 0; n <= 1000; n++) {
    const index = forms.plural(n);
    if (index >= 0 && index < forms.nplurals && categories[index] === undefined) {
      categories[index] = rules.select(n) as PluralCategory;
    }
  }
  return categories.map((category) => category ?? 'other');
}

/** gettext's Plural-Forms for a locale; undefined for a language not in the table. */
export function pluralFormsOf(locale: string): string | undefined {
  const language = locale.split('-')[0]!;
  const known = PLURAL_FORMS[locale] ?? PLURAL_FORMS[language];
  if (known) return known;
  if (pluralCategories(locale, 'cardinal').every((category) => category === 'other'))
    return 'nplurals=1; plural=0;';
  return undefined;
}

function writePo(input: WriteInput): Buffer {
  const parsed = parse(input.source, '(source)');
  const onDisk = input.existing ? safeParse(input.existing) : undefined;
  const existing = onDisk?.headers;
  const spelled = spelling.spellLocale(input.locale);
  const pluralText =
    (existing?.get('Plural-Forms') && parsePluralForms(existing.get('Plural-Forms')!)
      ? existing.get('Plural-Forms')
      : undefined) ??
    (sameLanguage(parsed.headers.get('Language'), input.locale)
      ? parsed.headers.get('Plural-Forms')
      : undefined) ??
    pluralFormsOf(input.locale);
  const hasPlurals = parsed.parts.some(
    (part) => part.kind === 'entry' && part.entry.msgid_plural !== undefined,
  );
  if (!pluralText && hasPlurals) {
    throw new FormatError(
      '(source)',
      `no gettext Plural-Forms is known for ${input.locale}: give its ${spelled}.po a Plural-Forms header`,
    );
  }
  const pluralForms = pluralText ? parsePluralForms(pluralText) : undefined;
  const indexes = pluralForms ? indexCategories(pluralForms, input.locale) : [];
  const categories = pluralCategories(input.locale, 'cardinal');
  /** The entry's lines with `value`: as they are when they say it already (and are not fuzzy). */
  const written = (part: Extract<Part, { kind: 'entry' }>, value: string): string[] => {
    const { entry } = part;
    const msgstr =
      entry.msgid_plural === undefined
        ? [value]
        : (() => {
            const branches = pluralBranches(value, categories, INTERPOLATION);
            return indexes.map((category) => branches.get(category) ?? branches.get('other') ?? value);
          })();
    const same =
      !isFuzzy(entry) &&
      msgstr.length === entry.msgstr.length &&
      msgstr.every((text, index) => text === entry.msgstr[index]);
    return same ? part.lines : entryLines(part, msgstr);
  };
  // DESIGN §16: a target on disk is edited where its translations change, and nowhere else.
  if (onDisk)
    return Buffer.from(
      editInPlace(
        parsed,
        onDisk,
        input.valueOf,
        written,
        spelled,
        hasPlurals ? pluralText : undefined,
        input.options.revisionHeader ? revisionFields() : undefined,
        (key) => keepsUnwritten(input, key),
      ).join(onDisk.eol),
      'utf8',
    );
  const out: string[][] = [];
  parsed.parts.forEach((part) => {
    if (part.kind === 'text') return out.push(part.lines);
    if (part === parsed.header)
      return out.push(
        headerLines(
          part,
          parsed,
          spelled,
          pluralText,
          input.options.revisionHeader ? revisionFields() : undefined,
        ),
      );
    const value = part.unread ? undefined : input.valueOf(part.key);
    // Left out with the blank line that separated it from the next entry.
    out.push(value === undefined ? [] : written(part, value));
  });
  const lines = withoutSeparatorsOfLeftOut(parsed.parts, out);
  if (!parsed.header) {
    // A catalog without a header gets one: msgfmt needs the charset and the plural forms.
    const fields = [
      `Language: ${spelled}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=UTF-8',
      'Content-Transfer-Encoding: 8bit',
      ...(pluralText ? [`Plural-Forms: ${pluralText}`] : []),
    ];
    const body = fields.map((field) => `${field}\n`).join('');
    lines.unshift(...stringLines('msgid', '', false), ...stringLines('msgstr', body, true), '');
  }
  return Buffer.from(lines.join(parsed.eol), 'utf8');
}

/** The blocks of `parts` joined, each left-out entry's (an empty block) separator line dropped. */
function withoutSeparatorsOfLeftOut(parts: readonly Part[], out: readonly string[][]): string[] {
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

/**
 * The target on disk with the source's translations written where they change (DESIGN §16): an
 * entry whose value changed gets its msgstr (its `fuzzy` flag taken off), an entry the source no
 * longer has and Tolk synced (`keeps` says no) or whose translation is left out goes with its
 * comments and the blank line after it (an untranslated or fuzzy one with no value stays as it
 * is, and so does one the source lacks that Tolk never synced), an
 * entry new in the source goes after the nearest entry before it in the source that the target
 * has (else before the nearest one after it, else at the end) with the template's comments;
 * every other line — the header with its credits and dates, obsolete `#~` entries, entries Tolk
 * does not read — stays as it is. Only a header without the locale's Language or Plural-Forms
 * gets them.
 */
function editInPlace(
  source: Parsed,
  onDisk: Parsed,
  valueOf: (key: string) => string | undefined,
  written: (part: Extract<Part, { kind: 'entry' }>, value: string) => string[],
  spelled: string,
  pluralText: string | undefined,
  revision: RevisionFields | undefined,
  keeps: (key: string) => boolean,
): string[] {
  type Entry = Extract<Part, { kind: 'entry' }>;
  const readable = (part: Part): part is Entry => part.kind === 'entry' && !part.unread && part.key !== '';
  const sourceEntries = source.parts.filter(readable).filter((part) => part !== source.header);
  const inSource = new Set(sourceEntries.map((part) => part.key));
  const atOnDisk = new Map<string, number>();
  onDisk.parts.forEach((part, index) => {
    if (readable(part) && part !== onDisk.header) atOnDisk.set(part.key, index);
  });
  const out: string[][] = onDisk.parts.map((part) => {
    if (part.kind === 'text') return part.lines;
    if (part === onDisk.header) return headerInPlace(part, onDisk, spelled, pluralText);
    if (part.unread || part.key === '') return part.lines;
    if (!inSource.has(part.key)) return keeps(part.key) ? part.lines : [];
    const value = valueOf(part.key);
    if (value !== undefined) return written(part, value);
    // No value: a translation goes (a key left out), an entry that is none (empty, fuzzy) stays.
    const translated = !isFuzzy(part.entry) && part.entry.msgstr.some((text) => text !== '');
    return translated ? [] : part.lines;
  });
  const header = onDisk.header ? onDisk.parts.indexOf(onDisk.header) : -1;
  const entriesChanged = () =>
    out.some(
      (block, index) => index !== header && block !== (onDisk.parts[index] as { lines: string[] }).lines,
    ) || sourceEntries.some((part) => !atOnDisk.has(part.key) && valueOf(part.key) !== undefined);
  if (revision && header !== -1 && entriesChanged())
    out[header] = headerInPlace(onDisk.header!, onDisk, spelled, pluralText, revision);
  const lines = withoutSeparatorsOfLeftOut(onDisk.parts, out);
  // New entries, placed by the lines of their neighbours in the output.
  const after = new Map<number, string[][]>();
  const before = new Map<number, string[][]>();
  const atEnd: string[][] = [];
  const lineOf = new Map<number, { start: number; end: number }>();
  let cursor = 0;
  out.forEach((block, index) => {
    const part = onDisk.parts[index]!;
    const skipped =
      part.kind === 'text' &&
      index > 0 &&
      out[index - 1]!.length === 0 &&
      onDisk.parts[index - 1]!.kind === 'entry'
        ? 1
        : 0;
    const length = block.length - skipped;
    lineOf.set(index, { start: cursor, end: cursor + length });
    cursor += length;
  });
  const kept = (key: string) => {
    const index = atOnDisk.get(key);
    return index !== undefined && out[index]!.length > 0 ? index : undefined;
  };
  const neighbours = nearest(sourceEntries, (other) => kept(other.key));
  sourceEntries.forEach((part, at) => {
    if (atOnDisk.has(part.key)) return;
    const value = valueOf(part.key);
    if (value === undefined) return;
    const block = written(part, value);
    const { before: previous, after: next } = neighbours[at]!;
    if (previous !== undefined)
      return void (after.get(previous) ?? after.set(previous, []).get(previous)!).push(block);
    if (next !== undefined) return void (before.get(next) ?? before.set(next, []).get(next)!).push(block);
    atEnd.push(block);
  });
  if (after.size === 0 && before.size === 0 && atEnd.length === 0) return lines;
  const inserts: { line: number; lines: string[] }[] = [];
  for (const [index, blocks] of after) {
    // After the entry, each new one after a blank line of its own.
    inserts.push({ line: lineOf.get(index)!.end, lines: blocks.flatMap((block) => ['', ...block]) });
  }
  for (const [index, blocks] of before) {
    inserts.push({ line: lineOf.get(index)!.start, lines: blocks.flatMap((block) => [...block, '']) });
  }
  if (atEnd.length > 0) {
    // Before the final newline's empty last line, when the file has one.
    const end = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
    const trailingBlank = end > 0 && lines[end - 1]!.trim() === '';
    inserts.push({
      line: end,
      lines: atEnd.flatMap((block, i) => (i === 0 && trailingBlank ? block : ['', ...block])),
    });
  }
  inserts.sort((a, b) => b.line - a.line);
  for (const insert of inserts) lines.splice(insert.line, 0, ...insert.lines);
  return lines;
}

/** The target's header as it is, with the locale's Language and Plural-Forms where it lacks them. */
/** `PO-Revision-Date` and `Last-Translator` as a translator's editor sets them (`revisionHeader`). */
type RevisionFields = { 'PO-Revision-Date': string; 'Last-Translator': string };

function revisionFields(now = new Date()): RevisionFields {
  const iso = now.toISOString();
  return { 'PO-Revision-Date': `${iso.slice(0, 10)} ${iso.slice(11, 16)}+0000`, 'Last-Translator': 'Tolk' };
}

function headerInPlace(
  part: Extract<Part, { kind: 'entry' }>,
  onDisk: Parsed,
  spelled: string,
  pluralText: string | undefined,
  revision?: RevisionFields,
): string[] {
  const fields = [...onDisk.headers.entries()];
  const set = (name: string, value: string) => {
    const at = fields.findIndex(([field]) => field === name);
    if (at === -1) fields.push([name, value]);
    else fields[at] = [name, value];
  };
  const language = onDisk.headers.get('Language');
  const plural = onDisk.headers.get('Plural-Forms');
  const contentType = onDisk.headers.get('Content-Type');
  const needsCharset = !contentType || /charset=CHARSET/.test(contentType);
  if (
    language &&
    (!pluralText || plural === pluralText) &&
    !needsCharset &&
    !isFuzzy(part.entry) &&
    !revision
  )
    return part.lines;
  for (const [name, value] of Object.entries(revision ?? {})) set(name, value);
  if (!language) set('Language', spelled);
  if (pluralText && plural !== pluralText) set('Plural-Forms', pluralText);
  if (needsCharset) set('Content-Type', 'text/plain; charset=UTF-8');
  return entryLines(part, [fields.map(([name, value]) => `${name}: ${value}\n`).join('')], true);
}

function sameLanguage(spelled: string | undefined, locale: string): boolean {
  if (!spelled) return false;
  const parsed = parseTargetLocale(spelled.replaceAll('_', '-'));
  return parsed.ok && parsed.locale === locale;
}

function safeParse(bytes: Buffer): Parsed | undefined {
  try {
    return parse(bytes, '(target)');
  } catch {
    return undefined;
  }
}

/**
 * The template's header for a new target: `Language` and `Plural-Forms` of the target, `fuzzy`
 * taken off. (A target on disk keeps its own: headerInPlace.)
 */
function headerLines(
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
function entryLines(part: Extract<Part, { kind: 'entry' }>, msgstr: string[], header = false): string[] {
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
function stringLines(keyword: string, text: string, header: boolean): string[] {
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
