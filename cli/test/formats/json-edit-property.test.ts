// Property: an existing JSON target file changes only on the lines of the entries that change
// (DESIGN §16), whatever its layout, and reads back as exactly the values written.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonFormat } from '../../src/formats/json.js';
import { editTarget } from './json-format-harness.js';

type Tree = { [name: string]: string | Tree };

/** A leaf of the generated files: where it is, and what the source, the target and the run hold. */
type Leaf = {
  name: string;
  path: string[];
  inSource: boolean;
  /** Tolk synced the key for the locale: gone from the source, it is removed; else it stays. */
  synced: boolean;
  /** The target file's value, when it has the key. */
  target: string | undefined;
  /** What the run writes: unchanged, a new value, or nothing (left out). */
  change: { kind: 'same' } | { kind: 'set'; value: string } | { kind: 'drop' };
};

const text = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 6 }));

const leaves = fc
  .array(
    fc.record({
      group: fc.option(fc.constantFrom('g0', 'g1', 'g2'), { nil: undefined }),
      sub: fc.option(fc.constantFrom('h0', 'h1'), { nil: undefined }),
      inSource: fc.boolean(),
      synced: fc.boolean(),
      target: fc.option(text, { nil: undefined }),
      change: fc.oneof(
        fc.constant({ kind: 'same' as const }),
        text.map((value) => ({ kind: 'set' as const, value })),
        fc.constant({ kind: 'drop' as const }),
      ),
    }),
    { maxLength: 14 },
  )
  .map((rows) =>
    rows.map((row, index): Leaf => ({
      name: `k${index}`,
      path: [...(row.group ? [row.group] : []), ...(row.group && row.sub ? [`${row.group}${row.sub}`] : [])],
      inSource: row.inSource,
      synced: row.synced,
      target: row.target,
      change: row.change,
    })),
  );

const layout = fc.record({
  indent: fc.constantFrom('  ', '    ', '\t'),
  newline: fc.constantFrom('\n', '\r\n'),
  finalNewline: fc.boolean(),
  escapeUnicode: fc.boolean(),
  /** A rank per name: the target's key order, other than the source's. */
  ranks: fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
});

type Layout = {
  indent: string;
  newline: string;
  finalNewline: boolean;
  escapeUnicode: boolean;
  ranks: number[];
};

function tree(entries: { path: string[]; name: string; value: string }[]): Tree {
  const root: Tree = {};
  for (const { path, name, value } of entries) {
    let node = root;
    for (const part of path) node = (node[part] ??= {}) as Tree;
    node[name] = value;
  }
  return root;
}

/** A JSON text of `value` in a layout no source has. */
function serialize(value: Tree, style: Layout): string {
  const rank = (name: string) => style.ranks[Number(name.replace(/\D+/g, '')) % 40]! + name.length;
  const write = (node: Tree, indent: string): string => {
    const names = Object.keys(node).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
    if (names.length === 0) return '{}';
    const inner = indent + style.indent;
    const members = names.map((name) => {
      const item = node[name]!;
      return `${inner}${JSON.stringify(name)}: ${typeof item === 'string' ? escaped(item) : write(item, inner)}`;
    });
    return `{${style.newline}${members.join(`,${style.newline}`)}${style.newline}${indent}}`;
  };
  const escaped = (item: string) =>
    style.escapeUnicode
      ? JSON.stringify(item).replace(
          /[\u0080-\uffff]/g,
          (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
        )
      : JSON.stringify(item);
  return write(value, '') + (style.finalNewline ? style.newline : '');
}

/** The lines of `before` and of `after` outside their longest common subsequence. */
function lineDiff(before: string[], after: string[]): { removed: string[]; added: string[] } {
  const n = before.length;
  const m = after.length;
  const common = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      common[i]![j] =
        before[i] === after[j]
          ? common[i + 1]![j + 1]! + 1
          : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const removed: string[] = [];
  const added: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (before[i] === after[j]) {
      i++;
      j++;
    } else if (common[i + 1]![j]! >= common[i]![j + 1]!) removed.push(before[i++]!);
    else added.push(after[j++]!);
  }
  removed.push(...before.slice(i));
  added.push(...after.slice(j));
  return { removed, added };
}

const withoutComma = (line: string) => line.replace(/,?\r?$/, '');

describe('json format: an existing target edited in place, as a property', () => {
  it('when any keys change, are added or removed in a target of any layout, then only their lines change, keys the source lacks stay unless synced, and the file reads back as the values written', () => {
    fc.assert(
      fc.property(leaves, layout, (all, style) => {
        const source = JSON.stringify(
          tree(
            all.filter((leaf) => leaf.inSource).map((leaf) => ({ ...leaf, value: `source ${leaf.name}` })),
          ),
          null,
          2,
        );
        const present = all.filter((leaf) => leaf.target !== undefined);
        const before = serialize(tree(present.map((leaf) => ({ ...leaf, value: leaf.target! }))), style);

        // What the run writes: a source key's new value, its target value, or nothing; a key the
        // source lacks goes when synced and stays as it is when not.
        const wanted = new Map<string, string | undefined>();
        const touched = new Set<string>();
        const keyOf = (leaf: Leaf) => [...leaf.path, leaf.name].join('.');
        const synced = new Set(all.filter((leaf) => leaf.synced).map(keyOf));
        for (const leaf of all) {
          if (!leaf.inSource) {
            if (leaf.target !== undefined && leaf.synced) touched.add(leaf.name);
            continue;
          }
          const value =
            leaf.change.kind === 'set'
              ? leaf.change.value
              : leaf.change.kind === 'drop'
                ? undefined
                : leaf.target;
          wanted.set([...leaf.path, leaf.name].join('.'), value);
          if (value !== leaf.target) touched.add(leaf.name);
        }
        const after = editTarget(jsonFormat, source, before, 'de', (key) => wanted.get(key), {
          synced: (key) => synced.has(key),
        });

        const expected = tree(
          all.flatMap((leaf) => {
            if (!leaf.inSource)
              return leaf.target !== undefined && !leaf.synced ? [{ ...leaf, value: leaf.target }] : [];
            const value = wanted.get(keyOf(leaf));
            return value !== undefined ? [{ ...leaf, value }] : [];
          }),
        );
        expect(JSON.parse(after)).toEqual(expected);

        // The objects around a touched key may be created or removed with it.
        const names = new Set(touched);
        for (const leaf of all) if (touched.has(leaf.name)) for (const part of leaf.path) names.add(part);
        const { removed, added } = lineDiff(before.split('\n'), after.split('\n'));
        const explained = (line: string, other: string[]) =>
          [...names].some((name) => line.includes(`"${name}"`)) ||
          /^\s*(?:\{|\}|\{\}),?\r?$/.test(line) ||
          other.some((candidate) => withoutComma(candidate) === withoutComma(line));
        for (const line of removed)
          expect(explained(line, added), `removed line ${JSON.stringify(line)}`).toBe(true);
        for (const line of added)
          expect(explained(line, removed), `added line ${JSON.stringify(line)}`).toBe(true);
        // A key the source lacks and Tolk never synced keeps its line (a comma aside, which JSON needs).
        const afterLines = new Set(after.split('\n').map(withoutComma));
        for (const leaf of all) {
          if (leaf.inSource || leaf.target === undefined || leaf.synced) continue;
          const line = before.split('\n').find((candidate) => candidate.includes(`"${leaf.name}"`))!;
          expect(afterLines.has(withoutComma(line)), `kept line ${JSON.stringify(line)}`).toBe(true);
        }
        if (touched.size === 0 && Object.keys(expected).length > 0) expect(after).toBe(before);
        // A file that escapes non-ASCII keeps doing so.
        if (/\\u00[89a-f]|\\u0[1-9a-f]|\\u[1-9a-f]/.test(before) && !/[\u0080-\uffff]/.test(before)) {
          expect(/[\u0080-\uffff]/.test(after)).toBe(false);
        }
        // Untouched lines keep their line ending: the file's.
        if (before.includes('\r\n'))
          expect(
            after
              .split('\n')
              .slice(0, -1)
              .every((line) => line.endsWith('\r')),
          ).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
