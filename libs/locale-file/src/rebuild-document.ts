import type { ParsedSource } from './parse-locale-file.js';
import { put, walkLayout, type Container } from './walk-layout.js';

/**
 * The nested JSON object a parsed source came from: same nesting, same key order, arrays as
 * arrays, flat dotted keys still flat, annotations and metadata where they stood. Used to return
 * the content of a version and to give target files the source's shape.
 *
 * Objects are ordinary objects; a property named `__proto__` is defined as an own property, as
 * JSON.parse does, so it stays data and never changes a prototype.
 */
export function rebuildDocument(parsed: ParsedSource): Record<string, unknown> {
  const { values } = parsed;
  const root: Record<string, unknown> = {};
  walkLayout<Container>(parsed, root, {
    leaf: (node, name, index) => put(node, name, values[index]),
    open: (isArray) => (isArray ? [] : {}),
    close: (parent, name, node) => put(parent, name, node),
    annotation: (node, name, annotation) => put(node, name, annotation),
    metadata: (node, name, value) => put(node, name, value),
  });
  return root;
}
