/** A target `.stringsdict`: the source's entries with the target's forms, or the file on disk edited. */
import { TYPE, parse as parseIcu, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';
import { PLURAL_CATEGORIES, pluralCategories, type PluralCategory } from '@tolk/locale-file';
import * as plist from 'plist';
import { keepsUnwritten, type WriteInput } from '../format.js';
import { pluralBranches } from '../plural-message.js';
import { keyOfName } from '../key-names.js';
import { APPLE_INTERPOLATION, type Entry, FORMAT_KEY, type PlistDict, load } from './load.js';
import { editedTarget } from './edit-in-place.js';

/** The entry for a target's `message`, with the target's categories. */
function targetEntry(
  entry: Entry,
  source: PlistDict,
  message: string,
  categories: readonly PluralCategory[],
): PlistDict {
  let elements: MessageFormatElement[] | undefined;
  try {
    elements = parseIcu(message, { ignoreTag: true });
  } catch {
    elements = undefined;
  }
  const plurals = new Map<string, string>();
  let formatKey: string;
  if (!elements) formatKey = message;
  else if (
    /^%#@([^@\s]+)@$/.test(entry.formatKey) &&
    !elements.some((element) => element.type === TYPE.plural)
  ) {
    // One variable, and a language with only `other` dropped the plural: its text is `other`.
    const name = [...entry.variables.keys()][0]!;
    plurals.set(name, message);
    formatKey = entry.formatKey;
  } else {
    formatKey = '';
    for (const element of elements) {
      if (element.type === TYPE.literal) formatKey += element.value;
      else if (element.type === TYPE.plural && entry.variables.has(element.value)) {
        formatKey += `%#@${element.value}@`;
        plurals.set(element.value, printAST([element]));
      } else formatKey += printAST([element]);
    }
  }
  const out: PlistDict = {};
  for (const [name, value] of Object.entries(source)) {
    if (name === FORMAT_KEY) {
      out[name] = formatKey;
      continue;
    }
    const variable = entry.variables.get(name);
    if (!variable) {
      out[name] = value;
      continue;
    }
    const plural = plurals.get(name);
    if (plural === undefined) continue;
    const branches = pluralBranches(plural, categories, APPLE_INTERPOLATION);
    const dict: PlistDict = {};
    for (const [field, fieldValue] of Object.entries(variable)) {
      if (!(PLURAL_CATEGORIES as readonly string[]).includes(field)) dict[field] = fieldValue;
    }
    for (const [category, text] of branches) dict[category] = text;
    out[name] = dict;
  }
  return out;
}

export function writeStringsdict(input: WriteInput): Buffer {
  const loaded = load(input.source, '(source)');
  const categories = pluralCategories(input.locale);
  const root: PlistDict = {};
  for (const entry of loaded.entries) {
    const message = input.valueOf(entry.key);
    if (message === undefined) continue;
    root[entry.name] = targetEntry(entry, loaded.root[entry.name] as PlistDict, message, categories);
  }
  // DESIGN §16: a target on disk is edited where its translations change, and nowhere else.
  const edited = input.existing
    ? editedTarget(input.existing, root, (name) => keepsUnwritten(input, keyOfName(name)))
    : undefined;
  if (edited !== undefined) return Buffer.from(edited, 'utf8');
  const { text } = loaded;
  const indent = /\n([ \t]+)</.exec(text)?.[1] ?? '\t';
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const built = plist.build(root as plist.PlistValue, { pretty: true, indent, newline });
  // The source's own prolog (XML declaration, DOCTYPE, comments), then the plist.
  const plistAt = text.search(/<plist[\s>]/);
  const prolog = plistAt === -1 ? '' : text.slice(0, plistAt);
  // `plist` indents the root dict inside `<plist>`; Xcode and plutil do not.
  let body = built
    .slice(built.search(/<plist[\s>]/))
    .split(newline)
    .map((line) => (line.startsWith(indent) && /^\s*</.test(line) ? line.slice(indent.length) : line))
    .join(newline);
  if (/\r?\n$/.test(text)) body += newline;
  return Buffer.from(prolog + body, 'utf8');
}
