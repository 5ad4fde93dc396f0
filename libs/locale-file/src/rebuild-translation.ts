import type { ParsedSource } from './parse-locale-file.js';
import { pluralSuffix, type TargetKeys } from './plural-groups.js';
import { put, walkLayout, type Container } from './walk-layout.js';

/** ARB's name of the file's locale. */
const LOCALE_METADATA = '@@locale';

/** An object or array of the translation while it is being filled: what it holds, in order. */
type Pending = {
  isArray: boolean;
  names: string[];
  values: unknown[];
  elements: number;
  /** Whether an annotation (`@name`) was added: it is kept only where its key or group is. */
  annotated: boolean;
};

/**
 * A translated file in the source's shape: the source's nesting and key order (as
 * rebuildDocument gives it), with `valueOf(key)` in place of each source value.
 * - A key whose `valueOf` is undefined is left out; an empty string is a translation.
 * - Annotations (`@key`) and metadata (`@@...`) are the source's and are left out, except
 *   `@@locale` when `options.locale` is given: where the source has it, the translation has it
 *   too, with the target's locale (Flutter's gen-l10n refuses an ARB file whose `@@locale` does
 *   not match its name). Without `@@locale` in the source, there is none in the translation.
 * - An object or array left with nothing in it is left out, except the top-level object.
 * - An array with some elements left out becomes an object keyed by the remaining indexes
 *   (`{"1": "x"}`), which flattens to the same keys (`steps.1`) where an array would renumber
 *   them; with every element there it stays an array.
 * - `__proto__` stays a data property, as in rebuildDocument.
 * - With `options.target` (targetKeys of the source for the translation's locale), each i18next
 *   plural group is written as the target's forms, in CLDR order, at the place of the group's
 *   first source form (DESIGN §11); `valueOf` is asked for the target's form keys.
 * - With `options.annotations` (ARB targets, whose `@key` holds the message's `placeholders`),
 *   the source's annotations of the keys and groups the translation has are kept where they
 *   stood, and so is its metadata (`@@locale` still given the target's locale).
 */
export function rebuildTranslation(
  source: ParsedSource,
  valueOf: (key: string) => string | undefined,
  options: { locale?: string; target?: TargetKeys; annotations?: boolean } = {},
): Record<string, unknown> {
  const { keys } = source;
  const { locale, target, annotations = false } = options;
  const groupOf = target && target.groups.length > 0 ? target.groupOfSource : undefined;
  const root = pending(false);
  walkLayout<Pending>(source, root, {
    leaf(node, name, index) {
      node.elements++;
      const group = groupOf?.get(index);
      if (group) {
        const first = group.forms[0]!;
        if (first.index !== index) return;
        const stem = name.slice(0, name.length - pluralSuffix(group.type, first.category).length);
        for (const entry of target!.formsOf.get(group)!) {
          const value = valueOf(entry.key);
          if (value !== undefined) add(node, `${stem}${pluralSuffix(group.type, entry.category!)}`, value);
        }
        return;
      }
      const value = valueOf(keys[index]!);
      if (value !== undefined) add(node, name, value);
    },
    annotation(node, name, annotation) {
      if (!annotations) return;
      add(node, name, annotation);
      node.annotated = true;
    },
    metadata(node, name, value) {
      if (name === LOCALE_METADATA && locale !== undefined) add(node, name, locale);
      else if (annotations) add(node, name, value);
    },
    open: pending,
    close(parent, name, node) {
      parent.elements++;
      if (node.annotated) dropOrphanAnnotations(node);
      if (node.values.length > 0) add(parent, name, finish(node));
    },
  });
  if (root.annotated) dropOrphanAnnotations(root);
  return finish(root) as Record<string, unknown>;
}

function pending(isArray: boolean): Pending {
  return { isArray, names: [], values: [], elements: 0, annotated: false };
}

/** Leaves out the annotations of keys and groups the translation does not have. */
function dropOrphanAnnotations(node: Pending): void {
  const present = new Set(node.names);
  const names: string[] = [];
  const values: unknown[] = [];
  for (let i = 0; i < node.names.length; i++) {
    const name = node.names[i]!;
    if (name.startsWith('@') && !name.startsWith('@@') && !present.has(name.slice(1))) continue;
    names.push(name);
    values.push(node.values[i]);
  }
  node.names = names;
  node.values = values;
}

function add(node: Pending, name: string, value: unknown): void {
  node.names.push(name);
  node.values.push(value);
}

function finish(node: Pending): Container {
  if (node.isArray && node.values.length === node.elements) return node.values;
  const object: Record<string, unknown> = {};
  for (let i = 0; i < node.names.length; i++) put(object, node.names[i]!, node.values[i]);
  return object;
}
