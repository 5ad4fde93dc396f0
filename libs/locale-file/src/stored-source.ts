import { parseJsonInSlices } from '@tolk/time-slices';
import { compress, decompress } from './stored-document.js';
import { sliceClock } from './time-slices.js';
import type { FlatEntries } from './diff.js';
import type { Annotation, ParsedSource } from './parse-locale-file.js';

/**
 * How a parsed source, and the translations of a locale, are kept in storage: one JSON document,
 * gzip-compressed at the fastest level (locale files are repetitive text, and this runs on every
 * upload). zlib's async functions compress on libuv's thread pool, so the event loop keeps
 * serving while a large file is written or read. The stored data is our own; decoding checks its
 * outline only, to fail clearly on damaged storage rather than later somewhere else.
 */

/**
 * A source as decoded. `revisions[i]`, when stored, is the source version in which the value of
 * `keys[i]` last changed; sources stored before revisions were kept have none.
 */
export type StoredSource = ParsedSource & { revisions?: number[] };

type StoredSourceDocument = {
  keys: string[];
  values: string[];
  annotations: [string, Annotation][];
  metadata: [string, unknown][];
  layout: ParsedSource['layout'];
  /** Absent in sources stored before revisions were kept. */
  revisions?: readonly number[];
};

/** The source before the first upload (version 0). */
export const EMPTY_SOURCE: ParsedSource = Object.freeze({
  keys: Object.freeze([]) as unknown as string[],
  values: Object.freeze([]) as unknown as string[],
  annotations: new Map(),
  metadata: new Map(),
  layout: Object.freeze({
    steps: Object.freeze([]) as unknown as number[],
    containerNames: Object.freeze([]) as unknown as string[],
  }),
});

export async function encodeStoredSource(
  source: ParsedSource,
  extra: { revisions?: readonly number[] } = {},
): Promise<Buffer> {
  const { revisions } = extra;
  if (revisions && revisions.length !== source.keys.length) {
    throw new Error(`${revisions.length} revisions for ${source.keys.length} keys`);
  }
  const stored: StoredSourceDocument = {
    keys: source.keys,
    values: source.values,
    annotations: [...source.annotations],
    metadata: [...source.metadata],
    layout: source.layout,
    revisions,
  };
  return compressJson(stored);
}

/** The inverse of encodeStoredSource; `revisions` only when they were stored. */
export async function decodeStoredSource(content: Buffer): Promise<StoredSource> {
  const stored = await decompressJson(content);
  if (
    !isEntries(stored) ||
    !Array.isArray(stored.annotations) ||
    !Array.isArray(stored.metadata) ||
    !isLayout(stored.layout)
  ) {
    throw damaged('stored source');
  }
  const source: StoredSource = {
    keys: stored.keys,
    values: stored.values,
    annotations: new Map(stored.annotations as [string, Annotation][]),
    metadata: new Map(stored.metadata as [string, unknown][]),
    layout: stored.layout,
  };
  if (stored.revisions !== undefined) {
    if (!Array.isArray(stored.revisions) || stored.revisions.length !== stored.keys.length) {
      throw damaged('stored source revisions');
    }
    source.revisions = stored.revisions as number[];
  }
  return source;
}

/**
 * Entries a line of the stored form holds at most, and about how many characters of keys and
 * values: one JSON.stringify or JSON.parse of a line takes a few milliseconds (a hundred values
 * at the length limit are 10 MB, 100 ms in one go).
 */
const ENTRIES_PER_LINE = 5_000;
const CHARACTERS_PER_LINE = 256 * 1024;
const NEWLINE = 0x0a;

/**
 * Flat key → value pairs (the translations of a locale) in the same compact form: lines of
 * `{"keys":[…],"values":[…]}` of ENTRIES_PER_LINE entries or CHARACTERS_PER_LINE characters each,
 * so that 200,000 translations are written and read in time slices, not in one JSON.stringify or
 * JSON.parse of megabytes (JSON writes no raw newline, so lines split where they were joined).
 * What was stored as one document before is the form's one line, read in slices too.
 */
export async function encodeStoredEntries(entries: FlatEntries): Promise<Buffer> {
  if (entries.keys.length !== entries.values.length) {
    throw new Error(`${entries.values.length} values for ${entries.keys.length} keys`);
  }
  const lines: Buffer[] = [];
  const clock = sliceClock(1);
  let start = 0;
  do {
    if (start > 0) lines.push(Buffer.of(NEWLINE));
    let end = start;
    let characters = 0;
    while (end < entries.keys.length && end - start < ENTRIES_PER_LINE && characters < CHARACTERS_PER_LINE) {
      characters += entries.keys[end]!.length + entries.values[end]!.length;
      end++;
    }
    const line = { keys: entries.keys.slice(start, end), values: entries.values.slice(start, end) };
    lines.push(Buffer.from(JSON.stringify(line), 'utf8'));
    start = end;
    if (clock.due()) await clock.next();
  } while (start < entries.keys.length);
  return compress(Buffer.concat(lines));
}

export async function decodeStoredEntries(content: Buffer): Promise<{ keys: string[]; values: string[] }> {
  const text = await decompress(content);
  const keys: string[] = [];
  const values: string[] = [];
  const clock = sliceClock(1);
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf(NEWLINE, start);
    const end = newline === -1 ? text.length : newline;
    const line = await parseJsonInSlices(text.subarray(start, end));
    if (typeof line !== 'object' || line === null || !isEntries(line as Record<string, unknown>)) {
      throw damaged('stored entries');
    }
    const entries = line as { keys: string[]; values: string[] };
    for (let i = 0; i < entries.keys.length; i++) {
      keys.push(entries.keys[i]!);
      values.push(entries.values[i]!);
    }
    start = end + 1;
    if (clock.due()) await clock.next();
  }
  if (keys.length === 0 && text.length === 0) throw damaged('stored entries');
  return { keys, values };
}

function compressJson(document: unknown): Promise<Buffer> {
  return compress(Buffer.from(JSON.stringify(document), 'utf8'));
}

/** JSON.parse keeps `__proto__` names as own data properties. */
async function decompressJson(content: Buffer): Promise<Record<string, unknown>> {
  const document: unknown = JSON.parse((await decompress(content)).toString('utf8'));
  if (typeof document !== 'object' || document === null) throw damaged('stored document');
  return document as Record<string, unknown>;
}

function isEntries(
  stored: Record<string, unknown>,
): stored is Record<string, unknown> & { keys: string[]; values: string[] } {
  return (
    Array.isArray(stored.keys) && Array.isArray(stored.values) && stored.keys.length === stored.values.length
  );
}

function isLayout(layout: unknown): layout is ParsedSource['layout'] {
  if (typeof layout !== 'object' || layout === null) return false;
  const { steps, containerNames } = layout as Record<string, unknown>;
  return Array.isArray(steps) && Array.isArray(containerNames);
}

function damaged(what: string): Error {
  return new Error(`Damaged ${what}: not the JSON document that was encoded`);
}
