/** A YAML file's mappings read into a locale document: texts, plural hashes, sequences, comments. */
import { isAlias, isMap, isScalar, isSeq, type Pair, type Scalar, type YAMLMap } from 'yaml';
import { icuPluralMessage } from '../plural-message.js';
import {
  COUNT,
  type Loaded,
  RAILS_INTERPOLATION,
  classify,
  define,
  finding,
  join,
  keyName,
  rangeOf,
  shown,
} from './document.js';

export function readMap(loaded: Loaded, map: YAMLMap, prefix: string): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const seen = new Map<string, number>();
  map.items.forEach((pair, index) => {
    if (!isScalar(pair.key)) {
      finding(
        loaded,
        prefix.slice(0, -1),
        'format',
        'a key that is a mapping or a sequence, not a text; left out',
        rangeOf(pair.key),
      );
      return;
    }
    const name = keyName(loaded, pair);
    const path = prefix + name;
    if (name === '<<' && isAlias(pair.value)) {
      finding(
        loaded,
        path,
        'format',
        `merges *${pair.value.source} into ${shown(prefix.slice(0, -1))}: the keys it merges are not read here, and the merge is kept as it is`,
        rangeOf(pair.key),
      );
      return;
    }
    if (name === '' || name.startsWith('@')) {
      finding(
        loaded,
        path,
        'format',
        `the key ${JSON.stringify(name)} cannot be a key of a locale document (empty, or starting with @, which marks annotations); left out`,
        rangeOf(pair.key),
      );
      return;
    }
    const at = rangeOf(pair.key);
    const first = seen.get(name);
    if (first !== undefined) {
      finding(
        loaded,
        path,
        'duplicate',
        `the key ${JSON.stringify(name)} is given twice in one mapping (first on line ${first}); the last value is kept, as Ruby and YAML libraries keep it`,
        at,
      );
      delete object[name];
      delete object[`@${name}`];
    }
    seen.set(name, at === undefined ? 1 : loaded.lines.linePos(at).line);
    const value = readValue(loaded, pair.value, path);
    if (value === undefined) return;
    define(object, name, value);
    const description = commentOf(map, pair, index, loaded);
    if (description) define(object, `@${name}`, { description });
  });
  return object;
}

function readValue(loaded: Loaded, node: unknown, path: string): unknown {
  const value = classify(loaded, node, path);
  switch (value.kind) {
    case 'text':
      return value.text;
    case 'kept':
      return undefined;
    case 'plural':
      return icuPluralMessage(
        COUNT,
        value.branches.map(([category, pair]) => [category, (pair.value as Scalar<string>).value]),
        RAILS_INTERPOLATION,
      );
    case 'map': {
      const object = readMap(loaded, value.node, `${path}.`);
      return Object.keys(object).length > 0 ? object : undefined;
    }
    case 'seq': {
      const elements: unknown[] = [];
      let gaps = false;
      value.node.items.forEach((item, index) => {
        const element = readValue(loaded, item, join(path, String(index)));
        if (element === undefined) gaps = true;
        elements.push(element);
      });
      if (!gaps) return elements;
      // Elements that are not texts (Rails' `[~, Sun, Mon]`) keep the others at their indexes.
      const object: Record<string, unknown> = {};
      elements.forEach((element, index) => {
        if (element !== undefined) define(object, String(index), element);
      });
      return Object.keys(object).length > 0 ? object : undefined;
    }
  }
}

/** The comments of a key: above it (for a mapping's first key, above the mapping) and after it. */
function commentOf(map: YAMLMap, pair: Pair, index: number, loaded: Loaded): string | undefined {
  const parts: (string | null | undefined)[] = [];
  if (index === 0 && map !== loaded.document.contents) parts.push(map.commentBefore);
  if (isScalar(pair.key) || isMap(pair.key) || isSeq(pair.key)) parts.push(pair.key.commentBefore);
  // A mapping's own commentBefore is above its first key, which it goes to.
  if (isScalar(pair.value)) parts.push(pair.value.commentBefore, pair.value.comment);
  const lines = parts
    .filter((part): part is string => typeof part === 'string')
    .flatMap((part) => part.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.length > 0 ? lines.join('\n') : undefined;
}
