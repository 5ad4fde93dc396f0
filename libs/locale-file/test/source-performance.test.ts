import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { computeSourceDiff, sameContent } from '@tolk/locale-file';
import { DEFAULT_SOURCE_LIMITS, parseSourceDocument } from '@tolk/locale-file';
import { rebuildDocument } from '@tolk/locale-file';
import { largeFlatSourceText, largeSourceText } from './source-builders.js';

// Not a benchmark: generous bounds that only a quadratic step or a per-key allocation storm
// would break, on a slow CI machine too.
const BOUND_MS = 3000;
const MAX_KEYS = DEFAULT_SOURCE_LIMITS.maxKeys;

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
