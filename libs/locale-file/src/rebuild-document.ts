import { LayoutStep, type ParsedSource } from './parse-locale-file.js';

type Container = Record<string, unknown> | unknown[];
type Frame = { node: Container; prefix: string };

/**
 * The nested JSON object a parsed source came from: same nesting, same key order, arrays as
 * arrays, flat dotted keys still flat, annotations and metadata where they stood. Used to return
 * the content of a version and to give target files the source's shape.
 *
 * Objects are ordinary objects; a property named `__proto__` is defined as an own property, as
 * JSON.parse does, so it stays data and never changes a prototype.
 */
export function rebuildDocument(parsed: ParsedSource): Record<string, unknown> {
  const { keys, values, layout } = parsed;
  const annotations = [...parsed.annotations];
  const metadata = [...parsed.metadata];
  const root: Record<string, unknown> = {};
  const stack: Frame[] = [{ node: root, prefix: '' }];
  let frame: Frame = stack[0]!;
  let key = 0;
  let annotation = 0;
  let meta = 0;
  let container = 0;

  for (const step of layout.steps) {
    if (step > 0) {
      const end = key + step;
      if (end > keys.length) throw corrupt('more leaves than keys');
      for (; key < end; key++) {
        const name = keys[key]!.slice(frame.prefix.length);
        put(frame.node, name, values[key]);
      }
      continue;
    }
    switch (step) {
      case LayoutStep.openObject:
      case LayoutStep.openArray: {
        const name = containerName(layout, container++);
        const node: Container = step === LayoutStep.openArray ? [] : {};
        put(frame.node, name, node);
        frame = { node, prefix: `${frame.prefix}${name}.` };
        stack.push(frame);
        break;
      }
      case LayoutStep.close:
        stack.pop();
        if (stack.length === 0) throw corrupt('more closes than opens');
        frame = stack[stack.length - 1]!;
        break;
      case LayoutStep.annotation: {
        const entry = annotations[annotation++];
        if (!entry) throw corrupt('more annotation steps than annotations');
        put(frame.node, `@${entry[0].slice(frame.prefix.length)}`, entry[1]);
        break;
      }
      case LayoutStep.metadata: {
        const entry = metadata[meta++];
        if (!entry) throw corrupt('more metadata steps than metadata');
        put(frame.node, entry[0], entry[1]);
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
  return root;
}

function containerName(layout: ParsedSource['layout'], index: number): string {
  const name = layout.containerNames[index];
  if (name === undefined) throw corrupt('more opens than container names');
  return name;
}

function put(node: Container, name: string, value: unknown): void {
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
