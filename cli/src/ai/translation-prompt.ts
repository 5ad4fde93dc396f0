import { TYPE, parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { pluralExamples, type PluralCategory, type PluralType } from '@tolk/locale-file';
import type { UserModelMessage } from 'ai';
import type { KeyProblem } from './errors.js';

/**
 * An i18next plural group asked for as one unit (DESIGN §11): the model sees every form the
 * source has and answers with the target locale's forms, which may be others (`item_few`).
 */
export type PluralGroupRequest = {
  /** The group's keys without their category: `cart.item`, `place_ordinal`. */
  stem: string;
  type: PluralType;
  /** The source's form keys, in source order; each is among the strings sent. */
  sources: readonly string[];
  /** The target locale's forms in CLDR order: the keys the answer holds for the group. */
  forms: readonly { key: string; category: PluralCategory }[];
};

/** A translation of a text like one being asked for (translation memory's near match). */
export type MemoryExample = { source: string; translation: string };

export type TranslationRequest = {
  sourceLocale: string;
  targetLocale: string;
  instructions?: string | null;
  /** key → source text, in the order they are sent. */
  strings: ReadonlyMap<string, string>;
  /** The plural groups among `strings`, answered with the target's forms. */
  plurals: readonly PluralGroupRequest[];
  /** key → context annotation; only the keys of `strings` are sent. */
  context: ReadonlyMap<string, string>;
  /**
   * Answer key → a person's translation of an earlier source text of the key (DESIGN §13): the
   * reference the new translation keeps to. Only the keys the answer holds are sent.
   */
  references?: ReadonlyMap<string, string>;
  /**
   * Answer key → what was found wrong in its reference (`tolk translate --fix`, DESIGN §15): that
   * reference is the person's translation of the current source text, to keep and fix.
   */
  fixes?: ReadonlyMap<string, readonly string[]>;
  /** What was wrong with an earlier answer for these keys, told to the model on a retry. */
  earlierProblems: readonly KeyProblem[];
  /** Earlier translations of similar texts, for consistent wording (none: no section). */
  examples?: readonly MemoryExample[];
  /** The glossary entries these strings use, as a section of the message (translate/glossary.ts). */
  glossary?: string;
};

/**
 * The locales one request translates into: one request, or several with the same texts (a
 * multi-locale request: the texts are sent once and the answer holds one object per locale).
 */
export type Requests = TranslationRequest | readonly TranslationRequest[];

function listOf(requests: Requests): readonly TranslationRequest[] {
  return Array.isArray(requests) ? requests : [requests as TranslationRequest];
}

/** `a`, `a and b`, `a, b and c`. */
function spoken(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

/** The rules of the job; the project's own instructions follow them. */
export function buildSystemPrompt(requests: Requests): string {
  const all = listOf(requests);
  const request = all[0]!;
  const multi = all.length > 1;
  const targets = all.map((r) => r.targetLocale);
  const target = multi ? 'the target locale' : request.targetLocale;
  const item = multi
    ? 'Answer with one JSON object that maps each target locale (its code, as listed) to a flat JSON object ' +
      "mapping each id to the text's translation into that locale as a string: no other ids, no names, no paths."
    : 'Answer with one flat JSON object that maps each id to the translation of its text as a string: no other ' +
      'ids, no names, no paths.';
  const rules = [
    `You translate the user-interface strings of a software product from ${request.sourceLocale} to ${spoken(targets)}.`,
    'You receive a JSON object of the texts to translate, grouped by the path of their keys; each text is ' +
      `named by a number (its id) and the rest of its key. ${item}` +
      (all.some((r) => r.plurals.length > 0)
        ? ' A plural group is an object of its forms by plural category; answer it with an object of exactly ' +
          `the categories the message lists for its id (those ${target} needs), each mapped to its translation.`
        : ''),
    'Keep every placeholder exactly as written and do not translate its name: ICU arguments such as {name}, ' +
      '{count, number} or {d, date, short}, {{name}}, printf conversions such as %s, %d or %1$s, and markup ' +
      'tags such as <b>...</b>, <0>...</0> or <br/>.',
    'In ICU plural, selectordinal and select messages keep the argument name and the keyword, translate only ' +
      `the text inside the branches, use the plural categories of ${target} (always keep "other") and ` +
      'keep "#". Keep ICU quoting with apostrophes working.',
    'Keep leading and trailing whitespace and line breaks. Key names and context notes describe where a text ' +
      'appears; use them to choose words, never translate them.',
    ...(all.some((r) => referencesOf(r).length > 0)
      ? [
          "When a person's translation is given for an id, it is the reference: keep its wording, terms and " +
            'style, and change only what the new source text requires or what was found wrong in it.',
        ]
      : []),
  ].join('\n');
  const instructions = request.instructions?.trim();
  if (!instructions) return rules;
  return `${rules}\n\nThe project's instructions for translators:\n${instructions}`;
}

/**
 * What one answer holds, each under a short id ("1", "2", ... in the order of the strings sent):
 * a plain key, or a plural group answered as an object of its target categories. The model writes
 * the id, not the key, so that an answer costs the translations and little more; the CLI maps
 * ids back to keys before checking the answer (decodeAnswer).
 */
export type AnswerItem = { id: string; key: string } | { id: string; group: PluralGroupRequest };

export function answerItems(keys: Iterable<string>, plurals: readonly PluralGroupRequest[]): AnswerItem[] {
  const groupOf = new Map(plurals.flatMap((group) => group.sources.map((key) => [key, group] as const)));
  const items: AnswerItem[] = [];
  for (const key of keys) {
    const group = groupOf.get(key);
    const id = String(items.length + 1);
    if (!group) items.push({ id, key });
    else if (group.sources[0] === key) items.push({ id, group });
  }
  return items;
}

/** A source form's or target form's category: its key after the group's stem. */
function categoryOf(group: PluralGroupRequest, key: string): string {
  return key.slice(group.stem.length + 1);
}

/**
 * The answer keyed by keys again, as JSON text for checkAnswer: each plain id as its key, each
 * group's categories as its form keys (`cart.item` + `few` → `cart.item_few`). An id that was not
 * asked for stays as it is (checkAnswer reports it); a group answered with anything but an object
 * gives no forms (each is reported missing). Text that is no JSON object is handed on unchanged.
 */
export function decodeAnswer(text: string, items: readonly AnswerItem[]): string {
  const parsed = jsonObjectOf(text);
  if (!parsed) return text;
  const byId = new Map(items.map((item) => [item.id, item]));
  const entries: [string, unknown][] = [];
  for (const [id, value] of Object.entries(parsed)) {
    const item = byId.get(id);
    if (!item) entries.push([id, value]);
    else if ('key' in item) entries.push([item.key, value]);
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [category, form] of Object.entries(value))
        entries.push([`${item.group.stem}_${category}`, form]);
    }
  }
  return JSON.stringify(recordOf(entries));
}

/**
 * A multi-locale answer split by target locale: each locale's object as JSON text, for
 * decodeAnswer. A locale the answer lacks, or holds as anything but an object, gets `{}` (each of
 * its ids is then reported missing); text that is no JSON object goes to every locale unchanged,
 * for checkAnswer to report.
 */
export function splitByLocale(text: string, locales: readonly string[]): Map<string, string> {
  const byLocale = jsonObjectOf(text);
  if (!byLocale) return new Map(locales.map((locale) => [locale, text]));
  return new Map(
    locales.map((locale) => {
      const value = Object.hasOwn(byLocale, locale) ? byLocale[locale] : undefined;
      const object = typeof value === 'object' && value !== null && !Array.isArray(value);
      return [locale, object ? JSON.stringify(value) : '{}'];
    }),
  );
}

/** A model's answer as a JSON object (in a code fence or not); undefined when it is none. */
function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripCodeFence(text.trim()));
  } catch {
    return undefined;
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}

export function stripCodeFence(text: string): string {
  const fenced = /^```[\w-]*\s*\n([\s\S]*?)\n?```$/.exec(text);
  return fenced ? fenced[1]!.trim() : text;
}

/**
 * `key` split at its last dot: the path it is grouped under and the rest of its name; a key
 * without a path (none, or only a leading dot) is grouped under "".
 */
function splitKey(key: string): [string, string] {
  const dot = key.lastIndexOf('.');
  return dot <= 0 ? ['', key] : [key.slice(0, dot), key.slice(dot + 1)];
}

/**
 * One user message of one text: locales, context notes and the problems of an earlier answer,
 * then, as its last line, exactly the JSON object of the texts to translate, grouped by key path
 * and named `<id> <rest of the key>` (JSON.stringify escapes line breaks, so the object is always
 * one line), so that what was asked is unambiguous and plain to read in a recording. The key
 * path is said once per group rather than once per key: keys share their paths, and a key is
 * often longer than its text. One text rather than several parts, because some providers
 * (DeepSeek) join parts without a separator. With several requests (a multi-locale request, the
 * same texts into each of their locales), the texts and notes are sent once and each locale's own
 * parts follow under `For <locale>:`.
 */
export function buildUserMessage(requests: Requests): UserModelMessage {
  const all = listOf(requests);
  const request = all[0]!;
  const items = answerItems(request.strings.keys(), request.plurals);
  const idOf = idsOf(items);
  const sections: string[] = [
    all.length > 1
      ? `Source locale: ${request.sourceLocale}\nTarget locales: ${all.map((r) => r.targetLocale).join(', ')}`
      : `Source locale: ${request.sourceLocale}\nTarget locale: ${request.targetLocale}`,
  ];
  const notes = new Map<string, string>();
  for (const [key, note] of entriesOf(request.context, request.strings)) {
    const id = idOf.get(key)!;
    if (!notes.has(id)) notes.set(id, note);
  }
  if (notes.size > 0) {
    sections.push(`Context notes for some ids (JSON, id → note):\n${JSON.stringify(recordOf(notes))}`);
  }
  if (all.length === 1) sections.push(...localeSections(request, items, idOf));
  else {
    // Each locale's own parts under its code; a locale with none is not named.
    for (const target of all) {
      const ownItems = answerItems(target.strings.keys(), target.plurals);
      const own = localeSections(target, ownItems, idsOf(ownItems));
      if (own.length > 0) sections.push(`For ${target.targetLocale}:\n${own.join('\n\n')}`);
    }
  }
  const groups = new Map<string, Record<string, unknown>>();
  for (const item of items) {
    const [path, rest] = splitKey('key' in item ? item.key : item.group.stem);
    const group = groups.get(path) ?? recordOf<unknown>([]);
    groups.set(path, group);
    const value =
      'key' in item
        ? request.strings.get(item.key)!
        : recordOf(item.group.sources.map((key) => [categoryOf(item.group, key), request.strings.get(key)!]));
    Object.defineProperty(group, `${item.id} ${rest}`, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  sections.push(
    `Translate these texts (JSON, key path → "<id> <rest of the key>" → text):\n${JSON.stringify(recordOf(groups))}`,
  );
  return { role: 'user', content: sections.join('\n\n') };
}

/** Each key's id: a plain key's own, and a plural group's for each of its source and target forms. */
function idsOf(items: readonly AnswerItem[]): Map<string, string> {
  const idOf = new Map<string, string>();
  for (const item of items) {
    if ('key' in item) idOf.set(item.key, item.id);
    else
      for (const key of [...item.group.sources, ...item.group.forms.map((form) => form.key)])
        idOf.set(key, item.id);
  }
  return idOf;
}

/**
 * The parts of a message that belong to one target locale: memory's examples, its plural
 * categories and groups, the glossary's renderings, a person's references and what was wrong
 * with an earlier answer.
 */
function localeSections(
  request: TranslationRequest,
  items: readonly AnswerItem[],
  idOf: ReadonlyMap<string, string>,
): string[] {
  const itemOf = new Map(items.map((item) => [item.id, item]));
  const sections: string[] = [];
  if (request.examples && request.examples.length > 0) {
    const pairs = request.examples.map((example) => [example.source, example.translation]);
    sections.push(
      `Earlier translations of similar texts, to keep wording consistent (JSON, [source, translation]):\n${JSON.stringify(pairs)}`,
    );
  }
  const plurals = describePlurals(request, items);
  if (plurals) sections.push(plurals);
  if (request.glossary) sections.push(request.glossary);
  const label = (key: string) => {
    const item = itemOf.get(idOf.get(key) ?? '');
    if (!item) return JSON.stringify(key);
    return 'key' in item ? item.id : `${item.id} (${categoryOf(item.group, key)})`;
  };
  /** id → a key's reference, or a group's references by category. */
  const byIdOf = (references: readonly [string, string][]) => {
    const byId = new Map<string, unknown>();
    for (const [key, reference] of references) {
      const item = itemOf.get(idOf.get(key)!)!;
      if ('key' in item) byId.set(item.id, reference);
      else {
        const forms = (byId.get(item.id) as Record<string, string> | undefined) ?? recordOf<string>([]);
        forms[categoryOf(item.group, key)] = reference;
        byId.set(item.id, forms);
      }
    }
    return JSON.stringify(recordOf(byId));
  };
  const references = referencesOf(request);
  const toFix = references.filter(([key]) => request.fixes?.has(key));
  const earlier = references.filter(([key]) => !request.fixes?.has(key));
  if (earlier.length > 0) {
    sections.push(
      "A person's translations of these texts, made for an earlier source text; keep to them and change only " +
        `what the new source text requires (JSON, id → translation):\n${byIdOf(earlier)}`,
    );
  }
  if (toFix.length > 0) {
    const lines = toFix.flatMap(([key]) =>
      request.fixes!.get(key)!.map((found) => `- ${label(key)}: ${found}`),
    );
    sections.push(
      "A person's translations of these texts, with what was found wrong in them; keep to them and change " +
        `only what fixes that (JSON, id → translation):\n${byIdOf(toFix)}\nFound wrong:\n${lines.join('\n')}`,
    );
  }
  if (request.earlierProblems.length > 0) {
    const lines = request.earlierProblems.map((p) => `- ${label(p.key)}: ${p.message}`);
    sections.push(`An earlier answer was rejected for these ids; fix this:\n${lines.join('\n')}`);
  }
  return sections;
}

/**
 * The plural categories of the target locale, each with a number that takes it (DESIGN §11: the
 * model is told them by name, with an example), when the strings hold an i18next plural group or
 * an ICU `plural` / `selectordinal`; then each group with the keys its answer must have.
 */
function describePlurals(request: TranslationRequest, items: readonly AnswerItem[]): string | undefined {
  const types = new Set<PluralType>(request.plurals.map((group) => group.type));
  for (const text of request.strings.values()) for (const type of icuPluralTypes(text)) types.add(type);
  if (types.size === 0) return undefined;
  const locale = request.targetLocale;
  const examples = (type: PluralType) =>
    pluralExamples(locale, type)
      .map(({ category, example }) => `${category} (${example})`)
      .join(', ');
  const lines: string[] = [];
  if (types.has('cardinal')) {
    // i18next asks `_zero` for 0 in every language, so a source's zero form is kept (targetKeys).
    const zero =
      request.plurals.some((group) => group.forms.some((form) => form.category === 'zero')) &&
      !pluralExamples(locale).some((example) => example.category === 'zero');
    lines.push(
      `Plural categories of ${locale}, each with a number that takes it: ${examples('cardinal')}.` +
        (zero ? " A group's zero form is for the number 0." : ''),
    );
  }
  if (types.has('ordinal'))
    lines.push(`Ordinal categories of ${locale} (selectordinal, _ordinal_ keys): ${examples('ordinal')}.`);
  if (request.plurals.length > 0) {
    const groups = recordOf(
      items.flatMap((item) =>
        'group' in item ? [[item.id, item.group.forms.map((form) => form.category)] as const] : [],
      ),
    );
    lines.push(
      `Plural groups: each is sent with its ${request.sourceLocale} forms; answer each with an object of exactly ` +
        `these categories of ${locale}, and none of its other forms (JSON, id → categories to answer):\n${JSON.stringify(groups)}`,
    );
  }
  return lines.join('\n');
}

/** The references for the keys the answer holds, in the order of the answer. */
function referencesOf(request: TranslationRequest): [string, string][] {
  const { references } = request;
  if (!references || references.size === 0) return [];
  return answerKeys(request.strings.keys(), request.plurals).flatMap((key) => {
    const reference = references.get(key);
    return reference === undefined ? [] : [[key, reference] as [string, string]];
  });
}

/** Whether an ICU message has a `plural` (cardinal) or `selectordinal` (ordinal) argument. */
function icuPluralTypes(text: string): Set<PluralType> {
  const types = new Set<PluralType>();
  if (!text.includes('plural') && !text.includes('selectordinal')) return types;
  let elements: MessageFormatElement[];
  try {
    elements = parse(text, { ignoreTag: true });
  } catch {
    return types;
  }
  const visit = (nodes: readonly MessageFormatElement[]) => {
    for (const node of nodes) {
      if (node.type === TYPE.plural) types.add(node.pluralType === 'ordinal' ? 'ordinal' : 'cardinal');
      if (node.type === TYPE.plural || node.type === TYPE.select)
        for (const option of Object.values(node.options)) visit(option.value);
      else if (node.type === TYPE.tag) visit(node.children);
    }
  };
  visit(elements);
  return types;
}

/**
 * The keys an answer holds, in the order of `keys` (the strings sent): each plain key, and each
 * plural group's target forms in place of its source forms.
 */
export function answerKeys(keys: Iterable<string>, plurals: readonly PluralGroupRequest[]): string[] {
  const groupOf = new Map(plurals.flatMap((group) => group.sources.map((key) => [key, group] as const)));
  const answered: string[] = [];
  for (const key of keys) {
    const group = groupOf.get(key);
    if (!group) answered.push(key);
    else if (group.sources[0] === key) answered.push(...group.forms.map((form) => form.key));
  }
  return answered;
}

/**
 * A plain object from entries, safe for any key: `__proto__` becomes an own property (as
 * JSON.parse would make it) instead of replacing the prototype, so it is serialised like any other.
 */
export function recordOf<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const record: Record<string, T> = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return record;
}

function entriesOf(
  notes: ReadonlyMap<string, string>,
  keys: ReadonlyMap<string, string>,
): [string, string][] {
  const entries: [string, string][] = [];
  for (const key of keys.keys()) {
    const note = notes.get(key)?.trim();
    if (note) entries.push([key, note]);
  }
  return entries;
}
