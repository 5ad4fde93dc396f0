import { promisify } from 'node:util';
import { gunzip, gzip, constants } from 'node:zlib';
import type { Annotation, ParsedSource } from '@tolk/locale-file';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

type StoredSource = {
  keys: string[];
  values: string[];
  annotations: [string, Annotation][];
  metadata: [string, unknown][];
  layout: ParsedSource['layout'];
  revisions?: number[];
};

/**
 * A parsed source as stored: one JSON document, gzip-compressed (fastest level: sources are
 * repetitive text and this runs on every upload). Compression runs on libuv's thread pool, so
 * the event loop keeps serving while a large source is written.
 */
export async function encodeSource(source: ParsedSource, revisions?: number[]): Promise<Buffer> {
  const stored: StoredSource = {
    keys: source.keys,
    values: source.values,
    annotations: [...source.annotations],
    metadata: [...source.metadata],
    layout: source.layout,
    revisions,
  };
  return gzipAsync(Buffer.from(JSON.stringify(stored), 'utf8'), { level: constants.Z_BEST_SPEED });
}

/** The inverse of encodeSource. JSON.parse keeps `__proto__` names as own data properties. */
export async function decodeSource(content: Buffer): Promise<ParsedSource & { revisions?: number[] }> {
  const stored = JSON.parse((await gunzipAsync(content)).toString('utf8')) as StoredSource;
  return {
    keys: stored.keys,
    values: stored.values,
    annotations: new Map(stored.annotations),
    metadata: new Map(stored.metadata),
    layout: stored.layout,
    revisions: stored.revisions,
  };
}

/** The source before the first upload (version 0). */
export const EMPTY_SOURCE: ParsedSource = Object.freeze({
  keys: [],
  values: [],
  annotations: new Map(),
  metadata: new Map(),
  layout: { steps: [], containerNames: [] },
});
