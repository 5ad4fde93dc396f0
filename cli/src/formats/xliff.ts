/**
 * `xliff`: an XLIFF 1.2 or 2.0 file (Angular's `messages.xlf` / `messages.pl.xlf`), DESIGN §12.
 * The version is read from the root `<xliff version>`: 1.2, or 2.0 / 2.1 (2.1 only adds modules).
 *
 * Parsed with `saxes`, a maintained, strict (well-formedness-checking) SAX parser that reports
 * the exact offset of every tag: the file is then written back by editing it at those offsets,
 * so everything Tolk does not change keeps its bytes (a DOM serializer would re-escape text and
 * re-quote attributes). saxes reads no DTD and resolves no external entity; a file with a
 * `<!DOCTYPE>` is refused outright (XLIFF has none), so there is no XXE.
 *
 * - Keys are the ids of `<trans-unit>` (1.2) / `<unit>` (2.0): flat, like Java properties (the
 *   server keeps dotted names as they are), escaped where the locale document cannot hold them as
 *   they are (`Saved.`, a final i18next plural suffix: `key-names.ts`). Ids must be unique in the
 *   whole file, across `<file>` elements too (a key names one text); units with
 *   `translate="no"` (on the unit or a `<group>` around it) are not keys. A 2.0 unit has one
 *   segment (what Angular writes).
 * - Values are the `<source>` texts; read as a target locale's file (its target language that
 *   locale, see `isTargetFile`), the `<target>` texts, inline codes read back as the source's
 *   tokens; a unit with no target, an empty one or one not translated (1.2 `new`,
 *   `needs-translation`, 2.0 `initial`) has no value. A 2.0 segment without `state` and with a
 *   target is read as translated: the specification's default is `initial`, but Angular (and
 *   every tool that writes 2.0 without states) uses any target it finds.
 * - The unit's notes (1.2 `<note>`, 2.0 `<notes><note>`) are its context; Angular's meaning is
 *   prefixed `meaning:`.
 * - Inline codes (`<x id="INTERPOLATION" equiv-text="{{ name }}"/>`, `<ph>`, `<bpt>`, 2.0
 *   `<ph/>`, `<sc/>`, ...) become numbered empty tags, `<x1/>`, `<x2/>`; paired codes (`<g>`,
 *   `<pc>`, `<mrk>`) become `<g3>…</g3>`. The server's placeholder scanner compares tags by name
 *   and kind only, so the literal `<x id="A"/>` and `<x id="B"/>` would look alike and a
 *   translation that swapped or dropped one would pass; numbered names keep each code distinct.
 *   A target writes each code back exactly as the source has it (the source's own markup, per
 *   unit); the text around them is XML-escaped. What a code stands for (`equiv-text`, `equiv`,
 *   `disp`) is added to the context.
 * - A target: 1.2 `target-language` on every `<file>`, 2.0 `trgLang` on `<xliff>`; each unit
 *   gets a `<target>` after its `<source>` (or in place of the one the source has), marked
 *   translated (1.2 `<target state="translated">`, 2.0 `<segment state="translated">`): Tolk's
 *   translations are never final (`final` / `signed-off` are for the reviewer's tools). A unit
 *   with no value is left out; a 1.2 unit's `<alt-trans>` stays as it is. The target file on
 *   disk (`existing`) keeps what a reviewer settled: a target marked `final` or `signed-off`
 *   (1.2 `<target state>`, 2.0 `<segment state>`) is written as it is there, with its state,
 *   whatever the server has, and so is the target of a unit not to be translated (which Tolk
 *   never writes one for). Written for the source's own locale, the `<source>` texts are what
 *   change, so the source comes back byte for byte.
 * - A target file on disk that parses is edited in place (DESIGN §16, `editInPlace`): only the
 *   units whose translation (or `<source>`) changes, comes or goes change; a unit on disk with no
 *   translation that Tolk has none for either (no target, or one marked `new`) stays as it is.
 *   One that does not parse is refused, not overwritten.
 * - Findings, each at its unit, the rest of the file read (DESIGN §15): an id given twice (the
 *   first unit is kept, as Angular's loader keeps it; it stops the build: an error), a unit
 *   without id or `<source>`, an id the locale document cannot hold, a 2.0 unit of several
 *   segments, a text that reads as a token (`&lt;x1/&gt;`): each such unit is left out, of the
 *   document and of targets.
 * - Refused (the file does not parse): malformed XML (line and column), a DTD (no entity of one
 *   is ever read, so no entity bomb), a root that is not `<xliff>`, an unknown version.
 */
import { SaxesParser, type SaxesTag } from 'saxes';
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
import { keyOfName, nameProblem } from './key-names.js';
import { decodeUtf8 } from './utf8.js';

export const xliffFormat: LocaleFormat = {
  name: 'xliff',
  extensions: ['.xlf', '.xliff'],
  /** Angular's spelling: `messages.pt-BR.xlf`. */
  ...bcp47Spelling('-'),
  read(input: ReadInput) {
    const { bytes, path, locale } = input;
    const document: Record<string, unknown> = {};
    for (const unit of parse(bytes, path, input).units) {
      if (!unit.translatable) continue;
      const value = isTargetFile(unit, locale) ? translationOf(unit) : unit.value;
      if (value === undefined) continue;
      document[unit.key] = value;
      const context = [
        ...unit.notes,
        ...unit.codes.flatMap((code) => (code.equiv ? [`${code.token} stands for ${code.equiv}`] : [])),
      ];
      if (context.length > 0) document[`@${unit.key}`] = { description: context.join('\n') };
    }
    return document;
  },
  write: writeXliff,
};

type Range = { start: number; end: number };
/** An inline code of a source: the token standing for it in values, and its markup. */
type Code = {
  token: string;
  open: string;
  close?: string;
  closeToken?: string;
  equiv?: string;
  /** Its `id` attribute: how a target's code that is not written as the source's is matched. */
  id?: string;
};
type Unit = {
  /** The unit's id in the file. */
  id: string;
  /** Its key in the locale document (`key-names.ts`). */
  key: string;
  /** False for a unit of `translate="no"` (or in such a group): no key, and Tolk writes no target. */
  translatable: boolean;
  /** The whole element. */
  range: Range;
  /** The `<segment>` start tag (2.0), and how many segments the unit has. */
  segment?: Range;
  segments: number;
  source: Range & { inner: Range };
  target?: Range;
  /** The target's text, inline codes as the source's tokens; undefined without a target. */
  targetValue?: string;
  /** 1.2 `<target state>` / 2.0 `<segment state>`. */
  state?: string;
  /** The unit's file's source and target languages, as the file spells them. */
  languages: { source?: string; target?: string };
  value: string;
  codes: Code[];
  notes: string[];
};
type Parsed = {
  text: string;
  version: '1.2' | '2.0';
  root: Range;
  /** 2.0: the root's languages. */
  rootLanguages: Unit['languages'];
  files: (Range & { languages: Unit['languages'] })[];
  /** Where the close tag of each 1.2 `<body>` / 2.0 `<file>` starts: the end of its units. */
  containerEnds: number[];
  units: Unit[];
  /** Units Tolk does not read (findings): left out of targets. */
  unread: Range[];
};

const PAIRED = new Set(['g', 'pc', 'mrk']);
/** The tokens inline codes are in values: `<x1/>`, `<g2>`, `</g2>`. */
const TOKEN = /<\/?[gx]\d+\/?>/;

/** A `<source>` or `<target>` being read: its text, inline codes as tokens. */
type TextInProgress = {
  kind: 'source' | 'target';
  start: number;
  innerStart: number;
  depth: number;
  value: string;
  open: { code: Code; start: number }[];
  /** Target codes no source code matches, numbered after the source's. */
  unmatched: number;
};

/** The element opened at `start`, its text from `innerStart`, `depth` elements deep. */
function openText(
  kind: TextInProgress['kind'],
  start: number,
  innerStart: number,
  depth: number,
): TextInProgress {
  return { kind, start, innerStart, depth, value: '', open: [], unmatched: 0 };
}

function parse(bytes: Buffer, path: string, report?: Pick<ReadInput, 'path' | 'findings'>): Parsed {
  const text = decodeUtf8(bytes, path, 'XLIFF files are UTF-8');
  const base = text.startsWith('\uFEFF') ? 1 : 0;
  const parser = new SaxesParser({ position: true });
  const fail = (reason: string, at?: number): never => {
    const position = at === undefined ? { line: parser.line, column: parser.column } : lineColumn(text, at);
    throw new FormatError(path, reason, position);
  };
  const here = () => base + parser.position;
  const startOf = (end: number) => text.lastIndexOf('<', end - 1);

  let version: Parsed['version'] | undefined;
  let root: Range | undefined;
  const languages: Unit['languages'] = {};
  const files: Parsed['files'] = [];
  const containerEnds: number[] = [];
  let rootLanguages: Unit['languages'] = {};
  const units: Unit[] = [];
  const unread: Range[] = [];
  /** A finding about the unit being read, which is then left out. */
  const leaveOut = (
    reason: string,
    kind: FileFinding['kind'] = 'format',
    severity: FileFinding['severity'] = 'warning',
  ) => {
    if (!unit || unit.unread) return;
    unit.unread = true;
    if (report) {
      addFinding(report, {
        key: unit.translatable && unit.id && !nameProblem(unit.id) ? keyOfName(unit.id) : null,
        kind,
        severity,
        message: `${reason}; left out`,
        ...lineColumn(text, unit.start),
      });
    }
  };
  const seen = new Map<string, number>();
  const stack: string[] = [];
  /** For each open `<group>`: whether its units are not to be translated. */
  const groups: boolean[] = [];
  // The unit being read, and what of it.
  let unit:
    | (Partial<Unit> & {
        start: number;
        segments: number;
        notes: string[];
        codes: Code[];
        translatable: boolean;
        unread?: boolean;
      })
    | undefined;
  /** The `<source>` or `<target>` being read: its text, inline codes as tokens. */
  let inText: TextInProgress | undefined;
  let opaque: { start: number; depth: number; id?: string } | undefined;
  let note: { text: string; from?: string } | undefined;

  /** The source code a target's code stands for: the same markup, else the same id and kind. */
  const matchCode = (markup: string, id: string | undefined, paired: boolean): Code => {
    const codes = unit!.codes;
    const found =
      codes.find((code) => code.open === markup && !!code.closeToken === paired) ??
      (id === undefined ? undefined : codes.find((code) => code.id === id && !!code.closeToken === paired));
    if (found) return found;
    const number = (codes.length + ++inText!.unmatched).toString();
    return paired
      ? { token: `<g${number}>`, closeToken: `</g${number}>`, open: markup }
      : { token: `<x${number}/>`, open: markup };
  };

  parser.on('doctype', () => fail('has a <!DOCTYPE>: XLIFF files have none, and Tolk reads no DTD'));
  parser.on('opentag', (tag: SaxesTag) => {
    const end = here();
    const start = startOf(end);
    const name = tag.name;
    const attr = (key: string) =>
      typeof tag.attributes[key] === 'string' ? (tag.attributes[key] as string) : undefined;
    stack.push(name);
    if (stack.length === 1) {
      if (name !== 'xliff') fail(`has the root <${name}>, not <xliff>`, start);
      const v = attr('version');
      if (v === '1.2') version = '1.2';
      else if (v === '2.0' || v === '2.1') version = '2.0';
      else fail(`is XLIFF version ${JSON.stringify(v ?? '')}; Tolk reads XLIFF 1.2 and 2.0`, start);
      root = { start, end };
      if (version === '2.0') {
        languages.source = attr('srcLang');
        languages.target = attr('trgLang');
        rootLanguages = { ...languages };
      }
      return;
    }
    if (opaque) return;
    if (inText) {
      const id = attr('id');
      if (PAIRED.has(name) && !tag.isSelfClosing) {
        let code: Code;
        if (inText.kind === 'source') {
          const number = (unit!.codes.length + 1).toString();
          const equiv =
            attr('equiv-text') ?? attr('disp') ?? attr('dispStart') ?? attr('equiv') ?? attr('equivStart');
          code = {
            token: `<g${number}>`,
            closeToken: `</g${number}>`,
            open: text.slice(start, end),
            ...(equiv ? { equiv } : {}),
            ...(id === undefined ? {} : { id }),
          };
          unit!.codes.push(code);
        } else code = matchCode(text.slice(start, end), id, true);
        inText.open.push({ code, start });
        inText.value += code.token;
      } else if (inText.kind === 'source') {
        const equiv =
          attr('equiv-text') ?? attr('disp') ?? attr('dispStart') ?? attr('equiv') ?? attr('equivStart');
        const number = (unit!.codes.length + 1).toString();
        const code: Code = {
          token: `<x${number}/>`,
          open: '',
          ...(equiv ? { equiv } : {}),
          ...(id === undefined ? {} : { id }),
        };
        unit!.codes.push(code);
        inText.value += code.token;
        if (tag.isSelfClosing) code.open = text.slice(start, end);
        else opaque = { start, depth: stack.length };
      } else if (tag.isSelfClosing) inText.value += matchCode(text.slice(start, end), id, false).token;
      else opaque = { start, depth: stack.length, ...(id === undefined ? {} : { id }) };
      return;
    }
    if (name === 'file' && version === '1.2') {
      languages.source = attr('source-language');
      languages.target = attr('target-language');
      files.push({ start, end, languages: { ...languages } });
    }
    if (name === 'group')
      groups.push(attr('translate') === undefined ? !!groups.at(-1) : attr('translate') === 'no');
    const unitElement = version === '1.2' ? 'trans-unit' : 'unit';
    if (name === unitElement) {
      const id = attr('id') ?? '';
      const translate = attr('translate');
      const translatable = translate === undefined ? !groups.at(-1) : translate !== 'no';
      unit = { id, key: keyOfName(id), translatable, start, segments: 0, notes: [], codes: [] };
      unit.languages = { ...languages };
      if (id === '') {
        leaveOut(`a <${name}> has no id`);
        return;
      }
      if (!translatable) return;
      const before = seen.get(id);
      if (before !== undefined) {
        leaveOut(
          `the id ${JSON.stringify(id)} is given twice (lines ${lineColumn(text, before).line}, ${lineColumn(text, start).line}); the first unit is kept, and Angular refuses the file until one goes`,
          'duplicate',
          'error',
        );
        return;
      }
      seen.set(id, start);
      const problem = nameProblem(id);
      if (problem)
        leaveOut(`the id ${JSON.stringify(id)} cannot be a key of a locale document: it ${problem}`);
      return;
    }
    if (!unit) return;
    if (name === 'segment') {
      unit.segments++;
      if (unit.segments > 1 && unit.translatable)
        leaveOut(`the unit ${JSON.stringify(unit.id)} has several segments; Tolk reads units of one segment`);
      if (unit.segments === 1) {
        unit.segment = { start, end };
        const state = attr('state');
        if (state !== undefined) unit.state = state;
      }
    } else if (name === 'ignorable' || name === 'alt-trans') {
      // 2.0's untranslatable whitespace, 1.2's alternative translations: not the unit's text.
      opaque = { start, depth: stack.length };
    } else if (name === 'note') {
      note = { text: '', ...(attr('from') ? { from: attr('from') } : {}) };
      const category = attr('category');
      if (category) note.from = category;
    } else if (name === 'source' && !unit.source) {
      inText = openText('source', start, end, stack.length);
      if (tag.isSelfClosing) {
        unit.source = { start, end, inner: { start: end, end } };
        unit.value = '';
        inText = undefined;
      }
    } else if (name === 'target' && !unit.target) {
      const state = attr('state');
      if (version === '1.2' && state !== undefined) unit.state = state;
      inText = openText('target', start, end, stack.length);
      if (tag.isSelfClosing) {
        unit.target = { start, end };
        unit.targetValue = '';
        inText = undefined;
      }
    }
  });
  const onText = (data: string) => {
    if (opaque) return;
    if (inText) {
      const token = TOKEN.exec(data);
      if (token && unit!.translatable) {
        leaveOut(
          `the unit ${JSON.stringify(unit!.id)} has the text ${JSON.stringify(token[0])}, which Tolk writes for an inline code; write it as an inline code or reword it`,
        );
      }
      inText.value += data;
    } else if (note) note.text += data;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    const end = here();
    const depth = stack.length;
    stack.pop();
    if (tag.name === 'group' && !opaque && !inText) groups.pop();
    if (tag.isSelfClosing) return;
    const start = startOf(end);
    if (
      !opaque &&
      !inText &&
      depth === (version === '1.2' ? 3 : 2) &&
      tag.name === (version === '1.2' ? 'body' : 'file')
    )
      containerEnds.push(start);
    if (opaque) {
      if (depth !== opaque.depth) return;
      if (inText?.kind === 'source') {
        const code = unit!.codes.at(-1);
        if (code) code.open = text.slice(opaque.start, end);
      } else if (inText) inText.value += matchCode(text.slice(opaque.start, end), opaque.id, false).token;
      opaque = undefined;
      return;
    }
    if (inText) {
      if (depth === inText.depth) {
        const range = { start: inText.start, end };
        if (inText.kind === 'source') {
          unit!.source = { ...range, inner: { start: inText.innerStart, end: start } };
          unit!.value = inText.value;
        } else {
          unit!.target = range;
          unit!.targetValue = inText.value;
        }
        inText = undefined;
      } else {
        const { code } = inText.open.pop()!;
        if (inText.kind === 'source') code.close = text.slice(start, end);
        inText.value += code.closeToken;
      }
      return;
    }
    if (!unit) return;
    if (tag.name === 'note' && note) {
      const content = note.text.trim();
      if (content) unit.notes.push(note.from === 'meaning' ? `meaning: ${content}` : content);
      note = undefined;
    } else if (tag.name === (version === '1.2' ? 'trans-unit' : 'unit')) {
      // A unit not to be translated is Tolk's business only as far as it can keep its target.
      if (!unit.source && unit.translatable) leaveOut(`the unit ${JSON.stringify(unit.id)} has no <source>`);
      if (unit.unread) unread.push({ start: unit.start, end });
      else if (unit.source) units.push({ ...(unit as Unit), range: { start: unit.start, end } });
      unit = undefined;
    }
  });
  parser.on('error', (error) => {
    throw new FormatError(
      path,
      `is not well-formed XML: ${error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '')}`,
      {
        line: parser.line,
        column: parser.column,
      },
    );
  });
  parser.write(base ? text.slice(1) : text).close();
  if (!version || !root) fail('has no <xliff> element', 0);
  return { text, version: version!, root: root!, rootLanguages, files, containerEnds, units, unread };
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A value as XLIFF content: the source's codes for their tokens, the rest escaped. */
function encode(value: string, codes: readonly Code[]): string {
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
function withAttribute(tag: string, name: string, value: string): string {
  const existing = new RegExp(`(\\s${name}\\s*=\\s*)("[^"]*"|'[^']*')`);
  if (existing.test(tag)) return tag.replace(existing, (_, head: string) => `${head}"${value}"`);
  const close = tag.endsWith('/>') ? 2 : 1;
  return `${tag.slice(0, -close).trimEnd()} ${name}="${value}"${tag.slice(-close)}`;
}

/**
 * Whether a unit is read as a translation into `locale`: its file names `locale` as its target
 * language (its spelling, or the same language when the source language is another one).
 */
function isTargetFile(unit: Unit, locale: string): boolean {
  const target = canonical(unit.languages.target);
  if (target === undefined) return false;
  if (target === locale) return true;
  const language = (tag: string | undefined) => tag?.split('-')[0]?.toLowerCase();
  const source = canonical(unit.languages.source);
  return language(target) === language(locale) && language(source) !== language(locale);
}

function canonical(tag: string | undefined): string | undefined {
  if (tag === undefined) return undefined;
  try {
    return Intl.getCanonicalLocales(tag.replaceAll('_', '-'))[0];
  } catch {
    return undefined;
  }
}

/** 1.2 target states that are no translation (yet); 2.0's `initial`. */
const NOT_TRANSLATED = new Set(['new', 'needs-translation', 'initial']);
/** What a reviewer settled: Tolk keeps these targets of the file on disk (1.2, 2.0). */
const SETTLED = new Set(['final', 'signed-off']);

/** A unit's target as a value; undefined when it has none, an empty one, or one not translated. */
function translationOf(unit: Unit): string | undefined {
  if (unit.targetValue === undefined || unit.targetValue === '') return undefined;
  return unit.state !== undefined && NOT_TRANSLATED.has(unit.state) ? undefined : unit.targetValue;
}

/**
 * The target of the file on disk that a unit keeps: a target a reviewer marked final or
 * signed-off, or any target of a unit not to be translated. The markup of its `<target>` and,
 * in 2.0, the `<segment>` start tag that holds its state.
 */
function keptTarget(
  unit: Unit,
  on: Unit | undefined,
  text: string,
): { target: string; segment?: string } | undefined {
  if (!on?.target || unit.segments > 1 || on.segments > 1) return undefined;
  if (unit.translatable && !(on.translatable && on.state !== undefined && SETTLED.has(on.state)))
    return undefined;
  const target = text.slice(on.target.start, on.target.end);
  return on.segment ? { target, segment: text.slice(on.segment.start, on.segment.end) } : { target };
}

function writeXliff(input: WriteInput): Buffer {
  const { source, sourceLocale, locale, valueOf, existing } = input;
  if (existing !== undefined && locale !== sourceLocale) {
    const onDisk = parsedOrUndefined(existing);
    const edited = onDisk && editInPlace(parse(source, 'the source file'), onDisk, input);
    if (edited !== undefined) return Buffer.from(edited, 'utf8');
  }
  const { text, version, root, files, units, unread } = parse(source, 'the source file');
  const edits: (Range & { replacement: string })[] = [];
  /** Removes a unit with the indentation of its line. */
  const removeUnit = (range: Range) => {
    let lineStart = text.lastIndexOf('\n', range.start - 1);
    const ownLine = /^\s*$/.test(text.slice(lineStart + 1, range.start));
    // A CRLF line's break goes whole.
    if (lineStart > 0 && text[lineStart - 1] === '\r') lineStart--;
    const start = ownLine ? lineStart : range.start;
    edits.push({ start: Math.max(start, 0), end: range.end, replacement: '' });
  };
  for (const range of unread) removeUnit(range);
  const own = locale === sourceLocale;
  const retag = (range: Range, name: string, value: string) =>
    edits.push({ ...range, replacement: withAttribute(text.slice(range.start, range.end), name, value) });
  if (!own) {
    if (version === '1.2') for (const file of files) retag(file, 'target-language', locale);
    else retag(root, 'trgLang', locale);
  }
  const onDisk = own || existing === undefined ? undefined : parse(existing, 'the target file');
  const unitsOnDisk = new Map<string, Unit>();
  for (const unit of onDisk?.units ?? []) if (!unitsOnDisk.has(unit.id)) unitsOnDisk.set(unit.id, unit);
  /** `target` (the markup of a whole `<target>`) in place of the unit's, or after its source. */
  const putTarget = (unit: Unit, target: string) => {
    if (unit.target) {
      edits.push({ ...unit.target, replacement: target });
      return;
    }
    const previous = text.lastIndexOf('>', unit.source.start - 1);
    const indent = text.slice(previous + 1, unit.source.start);
    edits.push({
      start: unit.source.end,
      end: unit.source.end,
      replacement: (/^\s*$/.test(indent) ? indent : '') + target,
    });
  };
  for (const unit of units) {
    const kept = onDisk && keptTarget(unit, unitsOnDisk.get(unit.id), onDisk.text);
    if (kept) {
      if (kept.segment !== undefined && unit.segment)
        edits.push({ ...unit.segment, replacement: kept.segment });
      putTarget(unit, kept.target);
      continue;
    }
    if (!unit.translatable) continue;
    const value = valueOf(unit.key);
    if (value === undefined) {
      removeUnit(unit.range);
      continue;
    }
    if (own) {
      if (value !== unit.value) edits.push({ ...unit.source.inner, replacement: encode(value, unit.codes) });
      continue;
    }
    const content = encode(value, unit.codes);
    if (unit.segment) retag(unit.segment, 'state', 'translated');
    putTarget(
      unit,
      version === '1.2' ? `<target state="translated">${content}</target>` : `<target>${content}</target>`,
    );
  }
  return Buffer.from(applyEdits(text, edits), 'utf8');
}

function parsedOrUndefined(bytes: Buffer): Parsed | undefined {
  try {
    return parse(bytes, 'the target file');
  } catch {
    return undefined;
  }
}

type Edit = Range & { replacement: string };

/** The whitespace before `offset` on its line, or undefined when text stands there. */
function indentBefore(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/**
 * The edits that give a unit (of `text`) the target `content`: its `<target>` rewritten where it
 * stands with its own attributes (1.2 state `translated`), or one added after its `<source>` in
 * the source's indentation; a 2.0 `<segment>` marked translated.
 */
function targetEdits(text: string, version: Parsed['version'], unit: Unit, content: string): Edit[] {
  const edits: Edit[] = [];
  if (unit.segment)
    edits.push({
      ...unit.segment,
      replacement: withAttribute(text.slice(unit.segment.start, unit.segment.end), 'state', 'translated'),
    });
  if (unit.target) {
    let open = text.slice(unit.target.start, text.indexOf('>', unit.target.start) + 1);
    if (open.endsWith('/>')) open = `${open.slice(0, -2).trimEnd()}>`;
    if (version === '1.2') open = withAttribute(open, 'state', 'translated');
    edits.push({ ...unit.target, replacement: `${open}${content}</target>` });
    return edits;
  }
  const previous = text.lastIndexOf('>', unit.source.start - 1);
  const indent = text.slice(previous + 1, unit.source.start);
  const open = version === '1.2' ? '<target state="translated">' : '<target>';
  edits.push({
    start: unit.source.end,
    end: unit.source.end,
    replacement: (/^\s*$/.test(indent) ? indent : '') + `${open}${content}</target>`,
  });
  return edits;
}

/**
 * The target on disk with the source's translations written where they change (DESIGN §16): a
 * unit whose translation changes gets its `<target>` rewritten where it stands and is marked
 * translated (a target a reviewer settled stays), a unit whose `<source>` changed gets the
 * source's; a unit whose value is left out, or that the source lacks and Tolk synced, goes with
 * its line (one Tolk never synced stays as it is); a unit new
 * in the source is copied from it with its target, after the nearest unit before it in the
 * source that the target keeps (else before the nearest one after it, else at the end of the
 * first `<body>` / `<file>`) in its neighbours' indentation. Everything else (the declaration,
 * attribute order, notes, context groups, order, line endings) stays byte for byte.
 */
function editInPlace(from: Parsed, onDisk: Parsed, input: WriteInput): string | undefined {
  const { locale, valueOf } = input;
  const { text, version } = onDisk;
  const edits: Edit[] = [];
  const removeUnit = (range: Range) => {
    let lineStart = text.lastIndexOf('\n', range.start - 1);
    if (lineStart > 0 && text[lineStart - 1] === '\r') lineStart--;
    const ownLine = indentBefore(text, range.start) !== undefined;
    // A unit on the first line goes with the line break after it instead.
    const after = /^\r?\n/.exec(text.slice(range.end, range.end + 2))?.[0] ?? '';
    const start = ownLine && lineStart >= 0 ? lineStart : ownLine ? 0 : range.start;
    const end = ownLine && lineStart < 0 ? range.end + after.length : range.end;
    edits.push({ start, end, replacement: '' });
  };
  const retag = (range: Range, name: string, value: string) =>
    edits.push({ ...range, replacement: withAttribute(text.slice(range.start, range.end), name, value) });
  const reads = (languages: Unit['languages']) => isTargetFile({ languages } as Unit, locale);
  if (version === '1.2') {
    for (const file of onDisk.files) if (!reads(file.languages)) retag(file, 'target-language', locale);
  } else if (!reads(onDisk.rootLanguages)) retag(onDisk.root, 'trgLang', locale);

  const sourceUnits = new Map<string, Unit>();
  for (const unit of from.units) if (!sourceUnits.has(unit.id)) sourceUnits.set(unit.id, unit);
  for (const range of onDisk.unread) removeUnit(range);
  /** The target's units that stay, by id. */
  const kept = new Map<string, Unit>();
  for (const unit of onDisk.units) {
    const origin = sourceUnits.get(unit.id);
    // A unit the source lacks stays as it is unless Tolk synced it (keepsUnwritten).
    if (!origin && !kept.has(unit.id) && keepsUnwritten(input, unit.key)) {
      kept.set(unit.id, unit);
      continue;
    }
    if (!origin || kept.has(unit.id)) {
      removeUnit(unit.range);
      continue;
    }
    const sourceMarkup = from.text.slice(origin.source.start, origin.source.end);
    const sourceChanged = text.slice(unit.source.start, unit.source.end) !== sourceMarkup;
    if (!origin.translatable) {
      kept.set(unit.id, unit);
      if (sourceChanged) edits.push({ ...unit.source, end: unit.source.end, replacement: sourceMarkup });
      continue;
    }
    const settled = unit.target && unit.state !== undefined && SETTLED.has(unit.state) && unit.segments <= 1;
    const value = settled ? undefined : valueOf(origin.key);
    if (!settled && value === undefined) {
      // A unit the file has no translation of either (no target, or one marked `new`) stays as
      // it is: nothing of it changes.
      if (translationOf(unit) === undefined && !sourceChanged) kept.set(unit.id, unit);
      else removeUnit(unit.range);
      continue;
    }
    kept.set(unit.id, unit);
    if (sourceChanged)
      edits.push({ start: unit.source.start, end: unit.source.end, replacement: sourceMarkup });
    if (settled || (!sourceChanged && value === translationOf(unit))) continue;
    edits.push(...targetEdits(text, version, unit, encode(value!, origin.codes)));
  }

  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const order = from.units;
  const insertions = new Map<number, string>();
  let homeless = false;
  const add = (at: number, piece: string) => insertions.set(at, (insertions.get(at) ?? '') + piece);
  // For each unit of the source, the nearest unit before / after it in the source that the target keeps.
  const keptBefore: (Unit | undefined)[] = [];
  const keptAfter: (Unit | undefined)[] = [];
  for (let at = 0, last: Unit | undefined; at < order.length; at++) {
    keptBefore.push(last);
    last = kept.get(order[at]!.id) ?? last;
  }
  for (let at = order.length - 1, last: Unit | undefined; at >= 0; at--) {
    keptAfter[at] = last;
    last = kept.get(order[at]!.id) ?? last;
  }
  order.forEach((unit, at) => {
    if (kept.has(unit.id) || sourceUnits.get(unit.id) !== unit) return;
    let block: string;
    const base = unit.range.start;
    const local = (edit: Edit): Edit => ({
      start: edit.start - base,
      end: edit.end - base,
      replacement: edit.replacement,
    });
    const markup = from.text.slice(unit.range.start, unit.range.end);
    if (unit.translatable) {
      const value = valueOf(unit.key);
      if (value === undefined) return;
      block = applyEdits(markup, targetEdits(from.text, version, unit, encode(value, unit.codes)).map(local));
    } else block = markup;
    block = block.replace(/\r?\n/g, newline);
    const previous = keptBefore[at];
    if (previous) {
      add(previous.range.end, newline + (indentBefore(text, previous.range.start) ?? '') + block);
      return;
    }
    const next = keptAfter[at];
    if (next) {
      const indent = indentBefore(text, next.range.start);
      if (indent === undefined) add(next.range.start, block);
      else add(next.range.start - indent.length, indent + block + newline);
      return;
    }
    // At the end of the first <body> / <file>, on its own line before the close tag.
    const end = onDisk.containerEnds[0];
    if (end === undefined) {
      homeless = true;
      return;
    }
    const indent = indentBefore(from.text, unit.range.start) ?? '';
    const closeIndent = indentBefore(text, end);
    if (closeIndent !== undefined) add(end - closeIndent.length, indent + block + newline);
    else add(end, newline + indent + block + newline);
  });
  // A target whose units have no container to go in (an empty `<body/>`) is written as a new one.
  if (homeless) return undefined;
  for (const [at, replacement] of insertions) edits.push({ start: at, end: at, replacement });
  return applyEdits(text, edits);
}

/**
 * The text with each edit's range replaced, in one pass: the pieces between the edits joined
 * once, not the whole text copied again for each edit (a file of thousands of units has as
 * many edits). Edits that start at the same place are applied last given, first in the text.
 */
function applyEdits(text: string, edits: readonly (Range & { replacement: string })[]): string {
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
