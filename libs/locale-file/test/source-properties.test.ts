import { describe, expect, it } from 'vitest';
import {
  computeSourceDiff,
  isEmptyDiff,
  matchSourceEntries,
  sameEntries,
  type FlatEntries,
} from '@tolk/locale-file';
import { parseSourceDocument } from '@tolk/locale-file';
import { rebuildDocument } from '@tolk/locale-file';
import { defineOwn, randomSourceText, referenceFlatten, seededRandom } from './source-builders.js';

const CASES = 300;
const seeds = Array.from({ length: CASES }, (_, i) => i + 1);

describe('parse and rebuild on random documents', () => {
  it(`when ${CASES} random documents are parsed and rebuilt, then each comes back as the same JSON`, () => {
    for (const seed of seeds) {
      const text = randomSourceText(seed);
      const rebuilt = JSON.stringify(rebuildDocument(parseSourceDocument(JSON.parse(text))));
      expect(rebuilt, `seed ${seed}`).toBe(text);
    }
  });

  it('when random documents are parsed, then keys and values match a plain recursive flattening', () => {
    for (const seed of seeds) {
      const document = JSON.parse(randomSourceText(seed));
      const parsed = parseSourceDocument(document);
      const pairs = parsed.keys.map((key, i) => [key, parsed.values[i]]);
      expect(pairs, `seed ${seed}`).toEqual(referenceFlatten(document));
    }
  });

  it('when the random documents are generated, then they exercise the awkward cases', () => {
    const texts = seeds.map(randomSourceText).join('\n');
    for (const feature of ['"__proto__":', '"@__proto__":', '"@@meta', '"d1.e1":', '":[', '"@title":']) {
      expect(texts, feature).toContain(feature);
    }
  });
});

/** Keeps, modifies, deletes and inserts keys at random, sometimes shuffling the result. */
function mutate(previous: FlatEntries, random: () => number): FlatEntries {
  const keys: string[] = [];
  const values: string[] = [];
  let fresh = 0;
  previous.keys.forEach((key, i) => {
    const roll = random();
    if (roll < 0.1) {
      keys.push(`new-${fresh++}`);
      values.push('added');
    }
    if (roll < 0.25) return;
    keys.push(key);
    values.push(roll < 0.4 ? `${previous.values[i]}!` : previous.values[i]!);
  });
  if (random() < 0.3) {
    for (let i = keys.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [keys[i], keys[j]] = [keys[j]!, keys[i]!];
      [values[i], values[j]] = [values[j]!, values[i]!];
    }
  }
  return { keys, values };
}

describe('computeSourceDiff on random versions', () => {
  it(`when ${CASES} random pairs of versions are diffed, then the diff turns the old key set into the new one`, () => {
    for (const seed of seeds) {
      const random = seededRandom(seed);
      const previous = parseSourceDocument(JSON.parse(randomSourceText(seed)));
      const next = mutate(previous, random);
      const diff = computeSourceDiff(previous, next);
      const message = `seed ${seed}`;

      const applied = new Set(previous.keys);
      for (const key of diff.deleted) expect(applied.delete(key), message).toBe(true);
      for (const key of diff.added) {
        expect(applied.has(key), message).toBe(false);
        applied.add(key);
      }
      expect([...applied].sort(), message).toEqual([...next.keys].sort());

      const before = new Map(previous.keys.map((key, i) => [key, previous.values[i]]));
      const changed = next.keys.filter((key, i) => before.has(key) && before.get(key) !== next.values[i]);
      expect(diff.modified, message).toEqual(changed);
      expect(diff.added, message).toEqual(next.keys.filter((key) => !before.has(key)));
      const after = new Set(next.keys);
      expect(diff.deleted, message).toEqual(previous.keys.filter((key) => !after.has(key)));
      expect(isEmptyDiff(diff), message).toBe(sameEntries(previous, next));
    }
  });
});

/**
 * The document of `text` edited as a person would: some values reworded, some leaves renamed
 * (which also moves them to the end of their object), some objects written flat with dotted
 * names instead of nested (the same keys in another layout).
 */
function editDocument(text: string, random: () => number): Record<string, unknown> {
  const edit = (node: Record<string, unknown>): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(node)) {
      if (name.startsWith('@')) {
        defineOwn(result, name, value);
      } else if (typeof value === 'string') {
        const roll = random();
        const annotated = Object.hasOwn(node, `@${name}`);
        const renamed = roll < 0.1 && !annotated ? `${name}-renamed` : name;
        defineOwn(result, renamed, roll > 0.8 ? `${value}!` : value);
      } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const inner = edit(value as Record<string, unknown>);
        const dotted = Object.keys(inner).some((key) => key.includes('.') || key.startsWith('@'));
        if (random() < 0.2 && !dotted && !Object.hasOwn(node, `@${name}`) && !name.includes('.')) {
          for (const [key, leaf] of Object.entries(inner)) defineOwn(result, `${name}.${key}`, leaf);
        } else {
          defineOwn(result, name, inner);
        }
      } else {
        defineOwn(result, name, value);
      }
    }
    return result;
  };
  return edit(JSON.parse(text) as Record<string, unknown>);
}

describe('matchSourceEntries on random versions', () => {
  it(`when ${CASES} random documents are edited, then the match agrees with comparing the keys as text`, () => {
    for (const seed of seeds) {
      const random = seededRandom(seed);
      const text = randomSourceText(seed);
      const previous = parseSourceDocument(JSON.parse(text), undefined, { leafNames: true });
      const next = parseSourceDocument(editDocument(text, random), undefined, { leafNames: true });
      const message = `seed ${seed}`;
      const plainPrevious = { keys: [...previous.keys], values: [...previous.values] };
      const plainNext = { keys: [...next.keys], values: [...next.values] };

      const match = matchSourceEntries(previous, next);

      expect(match.diff, message).toEqual(computeSourceDiff(plainPrevious, plainNext));
      const at = new Map(plainPrevious.keys.map((key, i) => [key, i]));
      const unchangedFrom = plainNext.keys.map((key, i) => {
        const from = at.get(key);
        return from !== undefined && plainPrevious.values[from] === plainNext.values[i] ? from : -1;
      });
      expect([...match.unchangedFrom], message).toEqual(unchangedFrom);
      // Sharing previous's strings changes no content.
      expect(next.keys, message).toEqual(plainNext.keys);
      expect(next.values, message).toEqual(plainNext.values);
    }
  });
});
