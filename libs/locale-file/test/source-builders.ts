/**
 * Test data for the source domain: documents built as JSON text and parsed, as the HTTP layer
 * hands them over (a literal `{ "__proto__": ... }` in TypeScript would set a prototype instead).
 */

/** Small seeded generator (mulberry32), so a failing random case can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function defineOwn(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

// Names that are awkward for plain objects, integer-like names that JSON.parse reorders, and
// non-ASCII. None contains a dot or starts with "@".
const NAMES = [
  'title',
  'body',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '0',
  '7',
  '42',
  'with space',
  'ünïcödé',
  'emoji 😀',
  'k-1',
];

const TEXTS = ['Hello', '', 'Hi {name}', 'Ünïcödé ✓', 'line\nbreak', '"quoted"', '<b>{count}</b>'];

/**
 * A random valid source document as JSON text: nested objects and arrays, flat dotted names
 * among nested ones, annotations before or after their key (some on groups), top-level
 * metadata. Dotted names carry a number unique in the document, so no two paths ever flatten to
 * the same key.
 */
export function randomSourceText(seed: number): string {
  const random = seededRandom(seed);
  const int = (below: number) => Math.floor(random() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  let dotted = 0;

  function text(): string {
    return `${pick(TEXTS)}${int(3) === 0 ? ` #${int(1000)}` : ''}`;
  }

  function value(depth: number): unknown {
    const roll = random();
    if (depth < 4 && roll < 0.2) return object(depth + 1);
    if (depth < 4 && roll < 0.3) return array(depth + 1);
    return text();
  }

  function array(depth: number): unknown[] {
    return Array.from({ length: 1 + int(4) }, () => value(depth));
  }

  function object(depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    const count = 1 + int(6);
    for (let i = 0; i < count; i++) {
      const name = random() < 0.15 ? `d${++dotted}.e${dotted}` : pick(NAMES);
      if (Object.hasOwn(result, name)) continue;
      const annotation = random() < 0.25 ? { description: text(), maxLength: 10 + int(90) } : undefined;
      if (annotation && random() < 0.5) defineOwn(result, `@${name}`, annotation);
      defineOwn(result, name, value(depth));
      if (annotation && !Object.hasOwn(result, `@${name}`)) defineOwn(result, `@${name}`, annotation);
      if (depth === 0 && random() < 0.1) defineOwn(result, `@@meta${i}`, pick(['en', 1, { by: 'tool' }]));
    }
    return result;
  }

  return JSON.stringify(object(0));
}

/** The obvious recursive flattening, as an independent reference for document order. */
export function referenceFlatten(document: Record<string, unknown>): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  const visit = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      entries.push([path, value]);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, `${path}.${index}`));
    } else {
      for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
        if (!name.startsWith('@')) visit(child, path === '' ? name : `${path}.${name}`);
      }
    }
  };
  visit(document, '');
  return entries;
}

/** `groups` nested objects of `perGroup` keys each, as JSON text (parsed by the caller). */
export function largeSourceText(groups: number, perGroup: number): string {
  const document: Record<string, Record<string, string>> = {};
  for (let g = 0; g < groups; g++) {
    const group: Record<string, string> = {};
    for (let k = 0; k < perGroup; k++) group[`key_${k}`] = `Value ${g}/${k} with {placeholder} and some text`;
    document[`section_${g}`] = group;
  }
  return JSON.stringify(document);
}

/** `count` flat dotted keys (the i18next "flat" style), as JSON text. */
export function largeFlatSourceText(count: number): string {
  const document: Record<string, string> = {};
  for (let i = 0; i < count; i++) document[`screen_${i % 500}.item_${i}.label`] = `Label number ${i}`;
  return JSON.stringify(document);
}
