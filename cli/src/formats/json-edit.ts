/**
 * A target JSON file edited in place (DESIGN §16): the file on disk is given the values a target
 * written from the source would hold, and changes only where they differ.
 *
 * - A changed value is replaced where it stands, written in the file's own escaping: non-ASCII
 *   as `\uXXXX` (in the file's case of hex digits) and `/` as `\/` where the file's strings do so
 *   and hold no such character unescaped; otherwise as `JSON.stringify` writes it.
 * - A new key goes after the nearest key before it in the wanted order that the object has (past
 *   that key's `@key` annotation), else before the nearest one after it, else at the end of its
 *   object, with the separator (comma, line ending, indentation) and the `:` spacing of its
 *   neighbours. An object the file lacks is written whole, in the file's indentation.
 * - A key no longer wanted is removed with its line; a blank line before or after it stays
 *   between the keys around it (not at the start or end of its object). A key the caller keeps
 *   (`keeps`, of its flattened key: a translator's own, WriteInput.synced) stays as it is; an
 *   object no longer wanted goes with the keys it holds, keeping those it keeps.
 * - Metadata (`@@locale`, other `@@` keys) is the file's: kept as it is, never added. An
 *   annotation (`@key`) goes with its key: kept as it is while the key stays untouched, removed
 *   with the key, and, where annotations are wanted (ARB), given the wanted one when its key is
 *   written.
 * - Everything else is the file's bytes: key order, blank lines, spacing, a BOM, a missing final
 *   newline. A file that changes nowhere comes back byte for byte.
 * - A member new to the file that another version of it (`from`, a merge) holds with the wanted
 *   value comes as that version spells it (its line breaks, spacing and escapes).
 *
 * Returns undefined for a file that is not a JSON object (strict JSON): the caller writes the
 * target in the source's layout instead.
 */
import detectIndent from 'detect-indent';
import { detectNewline } from 'detect-newline';
import { getNodeValue, type Node } from 'jsonc-parser';
import { escapeName } from './json-document.js';
import { jsonTree } from './json-tree.js';

const BOM = '\uFEFF';

type Style = {
  unit: string;
  newline: string;
  asciiEscapes: 'lower' | 'upper' | undefined;
  slashes: boolean;
};

/**
 * `existing` edited to hold `wanted` (a document with the file's property names), or undefined.
 * `keeps`: whether a key not wanted (flattened, names as the document's keys) stays as it is.
 */
export function editJsonFile(
  existing: Buffer,
  wanted: Record<string, unknown>,
  keeps: (key: string) => boolean = () => false,
  from?: Buffer,
): Buffer | undefined {
  const origin = from === undefined ? undefined : originOf(from);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(existing);
  } catch {
    return undefined;
  }
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(BOM.length);
  const { tree, errors } = jsonTree(text);
  if (!tree || errors.length > 0 || tree.type !== 'object') return undefined;
  const editor = new Editor(text, styleOf(text, tree), keeps, origin?.text);
  const body = editor.object(tree, wanted, '', origin?.tree);
  const out = `${text.slice(0, tree.offset)}${body}${text.slice(tree.offset + tree.length)}`;
  if (out === text) return existing;
  return Buffer.from(`${bom ? BOM : ''}${out}`, 'utf8');
}

/**
 * Another version of the file (a merge, WriteInput.sameFile), whose members the file lacks are
 * copied as they stand there; undefined when it is not a JSON object.
 */
function originOf(from: Buffer): { text: string; tree: Node } | undefined {
  const text = from.toString('utf8').replace(/^\uFEFF/, '');
  const { tree, errors } = jsonTree(text);
  return tree && errors.length === 0 && tree.type === 'object' ? { text, tree } : undefined;
}

/** The members of object `node` by name (the last of a name given twice), made once per object. */
const membersOf = new WeakMap<Node, Map<string, Node>>();

/** The member `name` of object `node`, when it is one and has it. */
function memberOf(node: Node | undefined, name: string): Node | undefined {
  if (node?.type !== 'object') return undefined;
  let members = membersOf.get(node);
  if (!members) {
    members = new Map(
      (node.children ?? []).map((property) => [property.children?.[0]?.value as string, property]),
    );
    membersOf.set(node, members);
  }
  return members.get(name);
}

function styleOf(text: string, tree: Node): Style {
  let escaped = false;
  let raw = false;
  let upper = 0;
  let lower = 0;
  let slashEscaped = false;
  let slashRaw = false;
  const walk = (node: Node): void => {
    if (node.type === 'string') {
      const token = text.slice(node.offset + 1, node.offset + node.length - 1);
      if (/[\u0080-\uffff]/.test(token)) raw = true;
      for (const match of token.matchAll(/\\u([0-9a-fA-F]{4})/g)) {
        if (parseInt(match[1]!, 16) < 0x80) continue;
        escaped = true;
        if (/[A-F]/.test(match[1]!)) upper++;
        else if (/[a-f]/.test(match[1]!)) lower++;
      }
      if (token.includes('\\/')) slashEscaped = true;
      if (/(?<!\\)\//.test(token.replaceAll('\\\\', ''))) slashRaw = true;
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(tree);
  return {
    unit: detectIndent(text).indent || '  ',
    newline: detectNewline(text) ?? '\n',
    asciiEscapes: escaped && !raw ? (upper > lower ? 'upper' : 'lower') : undefined,
    slashes: slashEscaped && !slashRaw,
  };
}

/** A member of an object being edited, in its new order. */
type Member = {
  name: string;
  /** The member's text (`"name": value`). */
  text: string;
  /** The whitespace and comma before it in the file, when it is the file's. */
  separator?: string;
  /** The file's member, not added. */
  kept: boolean;
  /** Its value is written (new or changed), not the file's. */
  written: boolean;
};

/**
 * Of the separators before and after a removed member, the one that passes to the member after
 * it: the one with more line breaks, so that a blank line on either side stays between groups.
 */
function wider(before: string, after: string | undefined): string {
  if (after === undefined) return before;
  const lines = (separator: string) => separator.split('\n').length;
  return lines(after) > lines(before) ? after : before;
}

/** The flattened key of member `name` of the object of key `path` ('' at the root). */
function keyOf(path: string, name: string): string {
  const segment = escapeName(name);
  return path === '' ? segment : `${path}.${segment}`;
}

/** The flattened keys of the texts and other leaves inside an array of key `key`. */
function leafKeys(node: Node, key: string): string[] {
  if (node.type !== 'array' && node.type !== 'object') return [key];
  return (node.children ?? []).flatMap((child, index) =>
    node.type === 'array'
      ? leafKeys(child, keyOf(key, String(index)))
      : child.children?.[1]
        ? leafKeys(child.children[1], keyOf(key, child.children[0]!.value as string))
        : [],
  );
}

const isMetadata = (name: string) => name.startsWith('@@');
const isAnnotation = (name: string) => name.startsWith('@') && !isMetadata(name);

class Editor {
  constructor(
    private readonly text: string,
    private readonly style: Style,
    private readonly keeps: (key: string) => boolean,
    /** The text of another version of the file (originOf) that `origin` nodes are of. */
    private readonly originText?: string,
  ) {}

  /** Member `name` as another version of the file spells it, where it holds `wanted`. */
  private copied(origin: Node | undefined, name: string, wanted: unknown): string | undefined {
    const member = memberOf(origin, name);
    const value = member?.children?.[1];
    // Compared as JSON: jsonc-parser's objects have no prototype.
    if (!value || JSON.stringify(getNodeValue(value)) !== JSON.stringify(wanted)) return undefined;
    return this.originText!.slice(member!.offset, value.offset + value.length);
  }

  /** Whether value `node` of key `key`, not wanted, keeps something: a key, or an object holding one. */
  private keepsAny(node: Node, key: string): boolean {
    if (node.type !== 'object') {
      // An array's elements are keys too (`list.0`); kept whole unless one of them is the source's.
      const keys = node.type === 'array' ? leafKeys(node, key) : [key];
      return keys.every((leaf) => this.keeps(leaf));
    }
    return (node.children ?? []).some((property) => {
      const name = property.children![0]!.value as string;
      const value = property.children![1];
      return (
        !isMetadata(name) &&
        !isAnnotation(name) &&
        value !== undefined &&
        this.keepsAny(value, keyOf(key, name))
      );
    });
  }

  /**
   * The text of object `node` holding `wanted`: of flattened key `path` ('' at the root), or
   * inside an annotation (undefined), which keeps nothing beyond what is wanted. `origin`: the
   * same object in another version of the file, whose members this one lacks are copied.
   */
  object(node: Node, wanted: Record<string, unknown>, path: string | undefined, origin?: Node): string {
    const { text } = this;
    const properties = node.children ?? [];
    const wantedNames = Object.keys(wanted);
    const wantedSet = new Set(wantedNames);
    const lastOf = new Map<string, number>();
    properties.forEach((property, index) => lastOf.set(property.children![0]!.value as string, index));

    // The file's members, in its order: kept, edited or removed.
    const members: Member[] = [];
    const dropped = new Set<string>();
    let inherited: string | undefined;
    let previousEnd = -1;
    for (let index = 0; index < properties.length; index++) {
      const property = properties[index]!;
      const name = property.children![0]!.value as string;
      const separator = previousEnd < 0 ? undefined : text.slice(previousEnd, property.offset);
      previousEnd = property.offset + property.length;
      const value = property.children![1];
      const own = !isMetadata(name) && !isAnnotation(name) && !wantedSet.has(name);
      if (own && (path === undefined || !value || !this.keepsAny(value, keyOf(path, name)))) {
        dropped.add(name);
        // Its separator passes to the member after it where it holds more line breaks (wider).
        inherited ??= separator;
        continue;
      }
      const member: Member = { name, text: '', kept: true, written: false };
      const before = inherited === undefined ? separator : wider(inherited, separator);
      if (before !== undefined) member.separator = before;
      inherited = undefined;
      const isLast = lastOf.get(name) === index;
      if (own && value!.type === 'object') {
        // Not wanted, and holding keys it keeps: those stay, the others go.
        member.text =
          text.slice(property.offset, value!.offset) + this.object(value!, {}, keyOf(path!, name));
      } else if (value && isLast && wantedSet.has(name) && !isMetadata(name) && !isAnnotation(name)) {
        const key = path === undefined ? undefined : keyOf(path, name);
        const edited = this.value(
          value,
          wanted[name],
          this.lineIndent(property.offset),
          key,
          memberOf(origin, name)?.children?.[1],
        );
        member.written =
          edited !== undefined && edited !== text.slice(value.offset, value.offset + value.length);
        member.text = text.slice(property.offset, value.offset) + (edited ?? '');
      } else {
        member.text = text.slice(property.offset, previousEnd);
      }
      members.push(member);
    }

    // Annotations go with their keys; `@key` of a written key becomes the wanted one.
    const present = new Set(
      members.filter((member) => !isAnnotation(member.name)).map((member) => member.name),
    );
    const written = new Set(members.filter((member) => member.written).map((member) => member.name));
    const fresh = new Set(
      wantedNames.filter((name) => !isMetadata(name) && !isAnnotation(name) && !present.has(name)),
    );
    const out = members.filter((member, index) => {
      if (!isAnnotation(member.name) || !dropped.has(member.name.slice(1))) return true;
      // Removed with its key: its separator passes on as the key's did.
      const next = members[index + 1];
      if (next && member.separator !== undefined) next.separator = wider(member.separator, next.separator);
      return false;
    });
    for (const member of out) {
      if (!isAnnotation(member.name) || !written.has(member.name.slice(1)) || !wantedSet.has(member.name))
        continue;
      const property = properties[lastOf.get(member.name)!]!;
      const value = property.children![1]!;
      const edited = this.value(value, wanted[member.name], this.lineIndent(property.offset), undefined);
      member.text = text.slice(property.offset, value.offset) + (edited ?? '');
    }

    // New keys, and the missing annotations of written keys, where the wanted order puts them:
    // after the nearest name before them that the object has (past its annotation), else before
    // the nearest one after them, else at the end.
    const inObject = new Map(out.map((member) => [member.name, member]));
    const colon = this.colonOf(properties);
    const memberIndent = this.memberIndent(node, properties);
    const separator =
      properties.length > 0
        ? this.separatorOf(properties, this.text.slice(node.offset, properties[0]!.offset))
        : '';
    const inline = properties.length > 0 && !separator.includes('\n') ? { separator, colon } : undefined;
    const after = new Map<Member, Member[]>();
    const leading: Member[] = [];
    let anchor: Member | undefined;
    let firstKept: Member | undefined;
    for (const name of wantedNames) {
      const kept = inObject.get(name);
      if (kept) {
        anchor = kept;
        firstKept ??= kept;
        continue;
      }
      const annotated = name.slice(1);
      if (!fresh.has(name) && !(isAnnotation(name) && (fresh.has(annotated) || written.has(annotated))))
        continue;
      const member: Member = {
        name,
        text:
          this.copied(origin, name, wanted[name]) ??
          `${this.string(name)}${colon}${this.serialize(wanted[name], memberIndent, inline)}`,
        kept: false,
        written: true,
      };
      if (!anchor) leading.push(member);
      else if (after.has(anchor)) after.get(anchor)!.push(member);
      else after.set(anchor, [member]);
    }
    if (leading.length === 0 && after.size === 0) return this.joined(node, out, properties);
    const placed: Member[] = [];
    for (let index = 0; index < out.length; index++) {
      const member = out[index]!;
      if (member === firstKept) placed.push(...leading);
      placed.push(member);
      const next = after.get(member);
      if (!next) continue;
      // Past the key's own annotation, which stays with it.
      while (index + 1 < out.length && out[index + 1]!.name === `@${member.name}`) placed.push(out[++index]!);
      placed.push(...next);
    }
    if (!firstKept) placed.push(...leading);
    return this.joined(node, placed, properties);
  }

  /** The object's text from its members: the file's separators where they are kept. */
  private joined(node: Node, members: Member[], properties: Node[]): string {
    const { text } = this;
    const end = node.offset + node.length;
    if (properties.length === 0 || members.length === 0) {
      if (members.length === 0) {
        return properties.length === 0
          ? text.slice(node.offset, end)
          : `{${this.emptyInside(node, properties)}}`;
      }
      const own = this.lineIndent(node.offset);
      const inner = own + this.style.unit;
      const newline = this.style.newline;
      return `{${newline}${inner}${members.map((member) => member.text).join(`,${newline}${inner}`)}${newline}${own}}`;
    }
    const first = properties[0]!;
    const last = properties[properties.length - 1]!;
    const head = text.slice(node.offset, first.offset);
    const tail = text.slice(last.offset + last.length, end);
    const separator = this.separatorOf(properties, head);
    let out = head;
    members.forEach((member, index) => {
      if (index > 0) out += member.kept && member.separator !== undefined ? member.separator : separator;
      out += member.text;
    });
    return out + tail;
  }

  /** What an object emptied of its members keeps inside its braces: its closing line. */
  private emptyInside(node: Node, properties: Node[]): string {
    const last = properties[properties.length - 1]!;
    const tail = this.text.slice(last.offset + last.length, node.offset + node.length - 1);
    const newline = tail.lastIndexOf('\n');
    if (newline < 0) return '';
    return `${tail[newline - 1] === '\r' ? '\r\n' : '\n'}${tail.slice(newline + 1)}`;
  }

  /** The separator of a new member: the file's first one in the object, blank lines left out. */
  private separatorOf(properties: Node[], head: string): string {
    const raw =
      properties.length > 1
        ? this.text.slice(properties[0]!.offset + properties[0]!.length, properties[1]!.offset)
        : `,${head.slice(1)}`;
    const newline = raw.lastIndexOf('\n');
    if (newline < 0) return `,${raw.slice(raw.indexOf(',') + 1)}`;
    const ending = raw[newline - 1] === '\r' ? '\r\n' : '\n';
    return `,${ending}${raw.slice(newline + 1)}`;
  }

  /** The spacing around `:` of the object's first member. */
  private colonOf(properties: Node[]): string {
    const first = properties[0];
    if (!first?.children?.[1]) return ': ';
    const key = first.children[0]!;
    return this.text.slice(key.offset + key.length, first.children[1].offset);
  }

  /** The indentation of the object's members: of its first member's line, or one more level. */
  private memberIndent(node: Node, properties: Node[]): string {
    return properties.length > 0
      ? this.lineIndent(properties[0]!.offset)
      : this.lineIndent(node.offset) + this.style.unit;
  }

  /** The whitespace that starts the line `offset` is on. */
  private lineIndent(offset: number): string {
    const start = this.text.lastIndexOf('\n', offset - 1) + 1;
    return /^[ \t]*/.exec(this.text.slice(start, offset))![0];
  }

  /**
   * The text of value `node` holding `wanted`, at a member whose line is indented by `indent`;
   * undefined when nothing is wanted there.
   */
  private value(
    node: Node,
    wanted: unknown,
    indent: string,
    key: string | undefined,
    origin?: Node,
  ): string | undefined {
    if (wanted === undefined) return undefined;
    const raw = this.text.slice(node.offset, node.offset + node.length);
    if (typeof wanted === 'string') {
      return node.type === 'string' && node.value === wanted ? raw : this.string(wanted);
    }
    if (Array.isArray(wanted)) {
      if (node.type !== 'array' || node.children!.length !== wanted.length)
        return this.serialize(wanted, indent);
      let out = '';
      let at = node.offset;
      node.children!.forEach((child, index) => {
        out +=
          this.text.slice(at, child.offset) +
          this.value(
            child,
            wanted[index],
            this.lineIndent(child.offset),
            key === undefined ? undefined : keyOf(key, String(index)),
          )!;
        at = child.offset + child.length;
      });
      return out + this.text.slice(at, node.offset + node.length);
    }
    if (typeof wanted === 'object' && wanted !== null && node.type === 'object') {
      return this.object(node, wanted as Record<string, unknown>, key, origin);
    }
    if (
      node.type !== 'object' &&
      node.type !== 'array' &&
      JSON.stringify(node.value) === JSON.stringify(wanted)
    ) {
      return raw;
    }
    return this.serialize(wanted, indent);
  }

  /**
   * A new value, its lines indented from `indent` by the file's unit; on one line, with the
   * separator and colon of its neighbours, when they are on one line (`inline`).
   */
  private serialize(value: unknown, indent: string, inline?: { separator: string; colon: string }): string {
    if (typeof value === 'string') return this.string(value);
    if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
    if (inline) {
      const items = Array.isArray(value)
        ? value.map((item) => this.serialize(item, indent, inline))
        : Object.keys(value).map(
            (name) =>
              `${this.string(name)}${inline.colon}${this.serialize((value as Record<string, unknown>)[name], indent, inline)}`,
          );
      return Array.isArray(value) ? `[${items.join(inline.separator)}]` : `{${items.join(inline.separator)}}`;
    }
    const inner = indent + this.style.unit;
    const newline = this.style.newline;
    const items = Array.isArray(value)
      ? value.map((item) => this.serialize(item, inner))
      : Object.keys(value).map(
          (name) =>
            `${this.string(name)}: ${this.serialize((value as Record<string, unknown>)[name], inner)}`,
        );
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    if (items.length === 0) return `${open}${close}`;
    return `${open}${newline}${inner}${items.join(`,${newline}${inner}`)}${newline}${indent}${close}`;
  }

  /** A string in the file's escaping. */
  private string(value: string): string {
    let out = JSON.stringify(value);
    const { asciiEscapes, slashes } = this.style;
    if (asciiEscapes) {
      const upper = asciiEscapes === 'upper';
      out = out.replace(/[\u0080-\uffff]/g, (char) => {
        const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
        return `\\u${upper ? hex.toUpperCase() : hex}`;
      });
    }
    if (slashes) out = out.replaceAll('/', '\\/');
    return out;
  }
}
