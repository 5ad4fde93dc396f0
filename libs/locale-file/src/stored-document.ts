import { promisify } from 'node:util';
import { constants, gunzip, gzip } from 'node:zlib';
import { parseJsonInSlices } from '@tolk/time-slices';
import { parseSourceDocumentInSlices, type ParsedSource, type ParseOptions } from './parse-locale-file.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * zlib on the thread pool hands every output chunk back to the event loop before it goes on: with
 * the default 16 KiB chunks, compressing a few megabytes waits on the event loop dozens of times,
 * so it stalls exactly while the event loop is busy parsing. Chunks as large as the output is
 * likely to be let it run through in one go.
 */
export function compress(input: Buffer): Promise<Buffer> {
  return gzipAsync(input, {
    level: constants.Z_BEST_SPEED,
    chunkSize: Math.max(64 * 1024, Math.ceil(input.byteLength / 2)),
  });
}

export function decompress(input: Buffer): Promise<Buffer> {
  return gunzipAsync(input, {
    chunkSize: Math.max(64 * 1024, Math.min(input.byteLength * 8, 64 * 1024 * 1024)),
  });
}

/**
 * A source version kept as the uploaded document itself: the JSON text as it came in,
 * gzip-compressed on libuv's thread pool. Storing the text costs no serialising on upload (the
 * parsed form would need JSON.stringify of every key and value, on the event loop); reading it
 * back parses it again, which a cache of parsed versions mostly spares.
 */
export function encodeDocument(json: Buffer | string): Promise<Buffer> {
  return compress(typeof json === 'string' ? Buffer.from(json, 'utf8') : json);
}

/** Validated when it was uploaded: read back under no limit, so lowering one later loses nothing. */
const STORED_LIMITS = Object.freeze({
  maxKeys: Number.POSITIVE_INFINITY,
  maxDepth: Number.POSITIVE_INFINITY,
  maxKeyLength: Number.POSITIVE_INFINITY,
  maxValueLength: Number.POSITIVE_INFINITY,
  maxValueBraces: Number.POSITIVE_INFINITY,
});

/** The inverse of encodeDocument, parsed as an upload is; `raw` is the document's bytes. */
export async function decodeDocument(
  content: Buffer,
  options: ParseOptions = {},
): Promise<ParsedSource & { raw: Buffer }> {
  const raw = await decompress(content);
  // In time slices too: a stored version of 10 MiB took 100 ms in one JSON.parse.
  const document = await parseJsonInSlices(raw);
  return { ...(await parseSourceDocumentInSlices(document, STORED_LIMITS, options)), raw };
}

/** Each key's revision, as 32-bit integers, compressed (they repeat a lot). */
export function encodeRevisions(revisions: ArrayLike<number>): Promise<Buffer> {
  const ints = revisions instanceof Int32Array ? revisions : Int32Array.from(revisions);
  return compress(Buffer.from(ints.buffer, ints.byteOffset, ints.byteLength));
}

export async function decodeRevisions(content: Buffer): Promise<number[]> {
  const bytes = await decompress(content);
  if (bytes.byteLength % 4 !== 0) throw new Error('Stored revisions are damaged: not whole 32-bit integers');
  const aligned = new Int32Array(bytes.byteLength / 4);
  Buffer.from(aligned.buffer).set(bytes);
  return Array.from(aligned);
}

/**
 * A source version in one body, for source-service's internal API: the compressed document and
 * the compressed revisions, each as stored, behind a 4-byte length of the first.
 */
export function frameSourceVersion(document: Buffer, revisions: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(document.byteLength);
  return Buffer.concat([head, document, revisions]);
}

export function unframeSourceVersion(body: Buffer): { document: Buffer; revisions: Buffer } {
  if (body.byteLength < 4) throw new Error('Source version frame is too short');
  const length = body.readUInt32BE(0);
  if (4 + length > body.byteLength) throw new Error('Source version frame is damaged');
  return { document: body.subarray(4, 4 + length), revisions: body.subarray(4 + length) };
}

/** A framed source version, parsed, with its revisions (one per key, or an error). */
export async function decodeSourceVersion(body: Buffer): Promise<ParsedSource & { revisions: number[] }> {
  const parts = unframeSourceVersion(body);
  const [source, revisions] = await Promise.all([
    decodeDocument(parts.document),
    decodeRevisions(parts.revisions),
  ]);
  if (revisions.length !== source.keys.length) {
    throw new Error(`${revisions.length} revisions for ${source.keys.length} keys`);
  }
  return {
    keys: source.keys,
    values: source.values,
    annotations: source.annotations,
    metadata: source.metadata,
    layout: source.layout,
    revisions,
  };
}
