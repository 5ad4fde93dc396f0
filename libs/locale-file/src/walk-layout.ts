// The one walk over a source's layout behind rebuildDocument and rebuildTranslation; internal to
// the library (not exported from index.ts).

import { LayoutStep, type Annotation, type ParsedSource } from './parse-locale-file.js';

export type Container = Record<string, unknown> | unknown[];

/**
 * What a rebuild does at each step of the layout, in document order. `Node` is whatever the
 * rebuild keeps for an object or array while it is open; a node is only handed to its parent,
 * by `close`, once all of its content was seen.
 */
export type LayoutVisitor<Node> = {
  /** The value `values[index]`, named `name` in its object (an index string in an array). */
  leaf(node: Node, name: string, index: number): void;
  open(isArray: boolean): Node;
  close(parent: Node, name: string, node: Node): void;
  /** `name` is `@` and the annotated name, as the file writes it. */
  annotation?(node: Node, name: string, annotation: Annotation): void;
  metadata?(node: Node, name: string, value: unknown): void;
};

type Frame<Node> = { node: Node; prefix: string; name: string };

/**
 * Replays a parsed source's layout over its keys, annotations and metadata. Throws when the
 * layout does not fit them.
 */
export function walkLayout<Node>(parsed: ParsedSource, root: Node, visitor: LayoutVisitor<Node>): void {
  const { keys, layout } = parsed;
  const annotations = [...parsed.annotations];
  const metadata = [...parsed.metadata];
  const stack: Frame<Node>[] = [{ node: root, prefix: '', name: '' }];
  let frame: Frame<Node> = stack[0]!;
  let key = 0;
  let annotation = 0;
  let meta = 0;
  let container = 0;

  for (const step of layout.steps) {
    if (step > 0) {
      const end = key + step;
      if (end > keys.length) throw corrupt('more leaves than keys');
      for (; key < end; key++) visitor.leaf(frame.node, keys[key]!.slice(frame.prefix.length), key);
      continue;
    }
    switch (step) {
      case LayoutStep.openObject:
      case LayoutStep.openArray: {
        const name = containerName(layout, container++);
        frame = {
          node: visitor.open(step === LayoutStep.openArray),
          prefix: `${frame.prefix}${name}.`,
          name,
        };
        stack.push(frame);
        break;
      }
      case LayoutStep.close: {
        const closed = stack.pop()!;
        if (stack.length === 0) throw corrupt('more closes than opens');
        frame = stack[stack.length - 1]!;
        visitor.close(frame.node, closed.name, closed.node);
        break;
      }
      case LayoutStep.annotation: {
        const entry = annotations[annotation++];
        if (!entry) throw corrupt('more annotation steps than annotations');
        visitor.annotation?.(frame.node, `@${entry[0].slice(frame.prefix.length)}`, entry[1]);
        break;
      }
      case LayoutStep.metadata: {
        const entry = metadata[meta++];
        if (!entry) throw corrupt('more metadata steps than metadata');
        visitor.metadata?.(frame.node, entry[0], entry[1]);
        break;
      }
      default:
        throw corrupt(`unknown step ${step}`);
    }
  }
  if (key !== keys.length || annotation !== annotations.length || meta !== metadata.length) {
    throw corrupt('keys, annotations or metadata left over');
  }
  if (stack.length !== 1) throw corrupt('unclosed object or array');
}

function containerName(layout: ParsedSource['layout'], index: number): string {
  const name = layout.containerNames[index];
  if (name === undefined) throw corrupt('more opens than container names');
  return name;
}

/** Adds a member, as JSON.parse would: `__proto__` becomes an own data property. */
export function put(node: Container, name: string, value: unknown): void {
  if (Array.isArray(node)) {
    node.push(value);
  } else if (name === '__proto__') {
    Object.defineProperty(node, name, { value, enumerable: true, writable: true, configurable: true });
  } else {
    node[name] = value;
  }
}

/** A layout that does not fit its keys is a bug or damaged storage, never user input. */
function corrupt(reason: string): Error {
  return new Error(`Source layout does not match its keys: ${reason}`);
}
