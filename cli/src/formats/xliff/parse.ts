/**
 * An XLIFF 1.2 or 2.0 file parsed with `saxes`: its units (ids, source and target texts with inline
 * codes as tokens, notes, states) and where each element stands in the text, for writing by offsets.
 */
import { SaxesParser, type SaxesTag } from 'saxes';
import { addFinding, FormatError, type FileFinding, type ReadInput } from '../format.js';
import { keyOfName, nameProblem } from '../key-names.js';
import { decodeUtf8 } from '../utf8.js';

export type Range = { start: number; end: number };
/** An inline code of a source: the token standing for it in values, and its markup. */
export type Code = {
  token: string;
  open: string;
  close?: string;
  closeToken?: string;
  equiv?: string;
  /** Its `id` attribute: how a target's code that is not written as the source's is matched. */
  id?: string;
};
export type Unit = {
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
export type Parsed = {
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
export const TOKEN = /<\/?[gx]\d+\/?>/;

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

/** The unit being read, and what of it. */
type UnitInProgress = Partial<Unit> & {
  start: number;
  segments: number;
  notes: string[];
  codes: Code[];
  translatable: boolean;
  unread?: boolean;
};

/** A start tag just read: its name, where it is in the text, and its attributes' values. */
type OpenTag = {
  name: string;
  start: number;
  end: number;
  isSelfClosing: boolean;
  attr: (key: string) => string | undefined;
};

/** What an inline code stands for, as its attributes say (1.2 and 2.0). */
function equivOf(attr: OpenTag['attr']): string | undefined {
  return attr('equiv-text') ?? attr('disp') ?? attr('dispStart') ?? attr('equiv') ?? attr('equivStart');
}

export function parse(bytes: Buffer, path: string, report?: Pick<ReadInput, 'path' | 'findings'>): Parsed {
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
  let unit: UnitInProgress | undefined;
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
  /** The root: `<xliff>` of version 1.2, 2.0 or 2.1 (2.0: its languages). */
  const openRoot = ({ name, start, end, attr }: OpenTag) => {
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
  };

  /** An inline code in a `<source>` (a new code of the unit) or a `<target>` (one of the source's). */
  const openInlineCode = ({ name, start, end, isSelfClosing, attr }: OpenTag, inText: TextInProgress) => {
    const id = attr('id');
    if (PAIRED.has(name) && !isSelfClosing) {
      let code: Code;
      if (inText.kind === 'source') {
        const number = (unit!.codes.length + 1).toString();
        const equiv = equivOf(attr);
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
      const equiv = equivOf(attr);
      const number = (unit!.codes.length + 1).toString();
      const code: Code = {
        token: `<x${number}/>`,
        open: '',
        ...(equiv ? { equiv } : {}),
        ...(id === undefined ? {} : { id }),
      };
      unit!.codes.push(code);
      inText.value += code.token;
      if (isSelfClosing) code.open = text.slice(start, end);
      else opaque = { start, depth: stack.length };
    } else if (isSelfClosing) inText.value += matchCode(text.slice(start, end), id, false).token;
    else opaque = { start, depth: stack.length, ...(id === undefined ? {} : { id }) };
  };

  /** A `<trans-unit>` (1.2) or `<unit>` (2.0): its id checked, it becomes the unit being read. */
  const openUnit = ({ name, start, attr }: OpenTag) => {
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
    if (problem) leaveOut(`the id ${JSON.stringify(id)} cannot be a key of a locale document: it ${problem}`);
  };

  /** An element of the unit being read: its segment, a note, its source or its target. */
  const openInUnit = ({ name, start, end, isSelfClosing, attr }: OpenTag, unit: UnitInProgress) => {
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
      if (isSelfClosing) {
        unit.source = { start, end, inner: { start: end, end } };
        unit.value = '';
        inText = undefined;
      }
    } else if (name === 'target' && !unit.target) {
      const state = attr('state');
      if (version === '1.2' && state !== undefined) unit.state = state;
      inText = openText('target', start, end, stack.length);
      if (isSelfClosing) {
        unit.target = { start, end };
        unit.targetValue = '';
        inText = undefined;
      }
    }
  };

  parser.on('doctype', () => fail('has a <!DOCTYPE>: XLIFF files have none, and Tolk reads no DTD'));
  parser.on('opentag', (tag: SaxesTag) => {
    const end = here();
    const opened: OpenTag = {
      name: tag.name,
      start: startOf(end),
      end,
      isSelfClosing: tag.isSelfClosing,
      attr: (key) => (typeof tag.attributes[key] === 'string' ? (tag.attributes[key] as string) : undefined),
    };
    const { name, start, attr } = opened;
    stack.push(name);
    if (stack.length === 1) return openRoot(opened);
    if (opaque) return;
    if (inText) return openInlineCode(opened, inText);
    if (name === 'file' && version === '1.2') {
      languages.source = attr('source-language');
      languages.target = attr('target-language');
      files.push({ start, end, languages: { ...languages } });
    }
    if (name === 'group')
      groups.push(attr('translate') === undefined ? !!groups.at(-1) : attr('translate') === 'no');
    if (name === (version === '1.2' ? 'trans-unit' : 'unit')) return openUnit(opened);
    if (unit) openInUnit(opened, unit);
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
