import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import {
  checkInSlices,
  computeSourceDiff,
  DEFAULT_SOURCE_LIMITS,
  findIcuProblems,
  findPlaceholderMismatches,
  parseSourceDocument,
  parseSourceDocumentInSlices,
  rebuildDocument,
  sameContent,
  type FlatEntries,
  yieldToEventLoop,
} from '@tolk/locale-file';
import { hugeValuesDocuments, worstValues } from '../../../bench/big-value-documents.js';
import { largeFlatSourceText, largeSourceText } from './source-builders.js';

// Not a benchmark: generous bounds that only a quadratic step or a per-key allocation storm
// would break, on a slow CI machine too.
const BOUND_MS = 3000;
const MAX_KEYS = DEFAULT_SOURCE_LIMITS.maxKeys;
/** One value's check at the limits, measured at 5–10 ms: what the limits were chosen for. */
const VALUE_BOUND_MS = 100;
/** The longest the event loop may be held while a body is worked through in slices. */
const SLICED_BOUND_MS = 250;
/** …or, on a slower machine, this many times the longest JSON.parse of a body, which is one step. */
const SLICES_PER_PARSE = 4;

function timed<T>(run: () => T): { result: T; ms: number } {
  const started = performance.now();
  const result = run();
  return { result, ms: performance.now() - started };
}

describe('a source at the default key limit', () => {
  it('when 200,000 nested keys are parsed, diffed with 1 % changed and rebuilt, then each step is fast', () => {
    const text = largeSourceText(1000, MAX_KEYS / 1000);
    const body: unknown = JSON.parse(text);

    const parse = timed(() => parseSourceDocument(body));
    expect(parse.result.keys).toHaveLength(MAX_KEYS);
    expect(parse.ms).toBeLessThan(BOUND_MS);

    const values = parse.result.values.map((value, i) => (i % 100 === 0 ? `${value} (edited)` : value));
    const next = { ...parse.result, values };
    const diff = timed(() => computeSourceDiff(parse.result, next));
    expect(diff.result.modified).toHaveLength(MAX_KEYS / 100);
    expect(diff.ms).toBeLessThan(BOUND_MS);

    const rebuild = timed(() => JSON.stringify(rebuildDocument(parse.result)));
    expect(rebuild.result).toBe(text);
    expect(rebuild.ms).toBeLessThan(BOUND_MS);
  });

  it('when 200,000 flat dotted keys are parsed and compared with an identical upload, then it is fast', () => {
    const text = largeFlatSourceText(MAX_KEYS);
    const previous = parseSourceDocument(JSON.parse(text));

    const body: unknown = JSON.parse(text);

    const parse = timed(() => parseSourceDocument(body));
    expect(parse.result.keys).toHaveLength(MAX_KEYS);
    expect(parse.ms).toBeLessThan(BOUND_MS);

    const compare = timed(() => sameContent(previous, parse.result));
    expect(compare.result).toBe(true);
    expect(compare.ms).toBeLessThan(BOUND_MS);
  });

  it('when keys are shuffled between versions, then the diff is still linear and empty', () => {
    const previous = parseSourceDocument(JSON.parse(largeFlatSourceText(MAX_KEYS)));
    const order = previous.keys.map((_, i) => i).reverse();
    const next = { keys: order.map((i) => previous.keys[i]!), values: order.map((i) => previous.values[i]!) };

    const diff = timed(() => computeSourceDiff(previous, next));
    expect(diff.result).toEqual({ added: [], modified: [], deleted: [] });
    expect(diff.ms).toBeLessThan(BOUND_MS);
  });
});

/** The longest the event loop went without running a 1 ms timer while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    last = performance.now();
    await work();
    longest = Math.max(longest, performance.now() - last);
  } finally {
    clearInterval(timer);
  }
  return longest;
}

/** What locale-service checks a translation upload with, in its time slices. */
function checkUpload(source: FlatEntries, translations: ReadonlyMap<string, string>) {
  const charactersOf = (i: number) =>
    source.values[i]!.length + (translations.get(source.keys[i]!)?.length ?? 0);
  return Promise.all([
    checkInSlices(source.keys.length, charactersOf, (range) =>
      findIcuProblems(source, translations, 'pl', range),
    ),
    checkInSlices(source.keys.length, charactersOf, (range) =>
      findPlaceholderMismatches(source, translations, undefined, range),
    ),
  ]);
}

describe('values at the per-value limits', () => {
  it('when a value of each costliest shape at the length and brace limits is checked, then each check is short', () => {
    const { source, german } = worstValues();
    for (const key of Object.keys(source)) {
      // A fresh values array: no shape of the source is known yet, as for a new version.
      const entries = { keys: [key], values: [`${source[key]!}`] };
      const translations = new Map([[key, german[key]!]]);
      const check = timed(() => [
        ...findIcuProblems(entries, translations, 'pl'),
        ...findPlaceholderMismatches(entries, translations),
      ]);
      // Measured about 5–10 ms on a 2-core machine.
      expect(check.ms, key).toBeLessThan(VALUE_BOUND_MS);
    }
  });

  it('when a body full of them is flattened and checked in time slices, then the event loop is never held long', async () => {
    const { source, german } = hugeValuesDocuments();
    // JSON.parse of a whole body cannot be sliced: the longest of them, timed in the same run, is
    // the step the slices are held to, on a machine as slow or as busy as it is at that moment.
    let longestParse = 0;
    const parseJson = (body: Buffer) => {
      const { result, ms } = timed(() => JSON.parse(body.toString('utf8')) as unknown);
      longestParse = Math.max(longestParse, ms);
      return result;
    };
    const stall = await longestStall(async () => {
      // The source and the translations arrive in two requests: each body is parsed in a turn of
      // the event loop of its own.
      const parsed = await parseSourceDocumentInSlices(parseJson(source));
      await yieldToEventLoop();
      const translated = await parseSourceDocumentInSlices(parseJson(german));
      await yieldToEventLoop();
      const translations = new Map(translated.keys.map((key, i) => [key, translated.values[i]!]));
      const [icu, placeholders] = await checkUpload(parsed, translations);
      expect(icu).toEqual(expect.any(Array));
      expect(placeholders).toEqual([]);
    });
    // One JSON.parse of a 10 MiB body and the first check of a value at the limits are the longest
    // steps left (about 25 ms each, 40 ms held in all here); the 104 values checked in one chunk
    // held it 0.4 s here, 2 s in a loaded server: 16 times a parse. On a machine busy elsewhere
    // every step is slower alike: the bound follows the parse.
    expect(stall).toBeLessThan(Math.max(SLICED_BOUND_MS, SLICES_PER_PARSE * longestParse));
  });
});
