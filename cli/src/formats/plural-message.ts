/**
 * A format's plural structure (a Rails hash `one:` / `other:`, later Android `plurals`, PO plural
 * entries) and the ICU plural message the server's document holds for it (DESIGN §12):
 * `{count, plural, one {1 message} other {%{count} messages}}`. The branch texts keep the
 * format's own interpolation (`%{count}` stays text, read by ICU as `%` and the argument
 * `{count}`, which the placeholder checks see); everything else ICU would read as syntax (`#`,
 * braces, the apostrophes that quote them) is quoted, so each branch reads back as its text.
 * ICU is parsed with formatjs's parser, as the server's checks do (tags as text).
 */
import {
  TYPE,
  parse,
  type MessageFormatElement,
  type PluralElement,
} from '@formatjs/icu-messageformat-parser';
import { hoistSelectors } from '@formatjs/icu-messageformat-parser/manipulator.js';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';
import { PLURAL_CATEGORIES, type PluralCategory } from '@tolk/locale-file';

/**
 * How a format writes an argument in its text: `prefix` and the name in braces (Rails
 * `%{name}`). In ICU the prefix stays text before the argument `{name}`.
 */
export type Interpolation = { prefix: string };

/** Characters ICU reads as syntax in a plural branch (formatjs: no `|` quoting). */
const SYNTAX = new Set(['{', '}', '#']);
const ARGUMENT_NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;

/**
 * `text` as ICU text of a plural branch that reads back as `text`: the format's arguments become
 * ICU arguments at their place (`%{count}` → `%` `{count}`), other syntax is quoted (`'#'`).
 */
export function icuBranchText(text: string, interpolation: Interpolation): string {
  let out = '';
  let at = 0;
  const open = `${interpolation.prefix}{`;
  for (let from = text.indexOf(open); from !== -1; from = text.indexOf(open, from + 1)) {
    const close = text.indexOf('}', from + open.length);
    const name = close === -1 ? '' : text.slice(from + open.length, close);
    if (from < at || !ARGUMENT_NAME.test(name)) continue;
    const argumentAt = from + interpolation.prefix.length;
    out += quoteLiteral(text.slice(at, argumentAt)) + `{${name}}`;
    at = close + 1;
  }
  return out + quoteLiteral(text.slice(at));
}

/**
 * Literal text quoted for ICU. A run of syntax characters and apostrophes is one quoted section
 * (`'{#'`, apostrophes in it doubled); an apostrophe on its own stays one unless ICU could read
 * it as the start of a quote (at the end, where the branch's `}` follows) or several are in a row.
 */
function quoteLiteral(text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    if (!SYNTAX.has(text[at]!) && text[at] !== "'") {
      out += text[at];
      at++;
      continue;
    }
    let end = at;
    while (end < text.length && (SYNTAX.has(text[end]!) || text[end] === "'")) end++;
    const run = text.slice(at, end);
    const quoted = [...run].some((char) => SYNTAX.has(char));
    if (quoted) out += `'${run.replaceAll("'", "''")}'`;
    else out += run.length === 1 && end < text.length ? run : run.replaceAll("'", "''");
    at = end;
  }
  return out;
}

/** The ICU plural message of a structure's branches, in the order given. */
export function icuPluralMessage(
  argument: string,
  branches: readonly (readonly [PluralCategory, string])[],
  interpolation: Interpolation,
): string {
  const options = branches.map(([category, text]) => `${category} {${icuBranchText(text, interpolation)}}`);
  return `{${argument}, plural, ${options.join(' ')}}`;
}

/**
 * The text of each of `categories` (the target's) in `message` (the target's value of a plural
 * structure), in the format's syntax:
 * - a message made of one `plural` argument gives each category its branch; a category the
 *   message lacks gets the `other` branch, so the app never finds a form missing (Rails raises on
 *   a missing one; the server's checks keep this from happening to a model's translation); a
 *   message without `other` (a person's, read from a file that had none) gives only its own;
 * - `zero` is taken from `zero` or else `=0`: Rails and i18next look it up for a count of 0 in
 *   every language, so a language that has no CLDR `zero` (en, pl) gets one only when the
 *   message has one; a language whose categories include it (ar, lv) always does;
 * - any other message (a language with only `other` may drop the plural, DESIGN §11; or a
 *   message that is not ICU) is the text of every category.
 */
export function pluralBranches(
  message: string,
  categories: readonly PluralCategory[],
  interpolation: Interpolation,
): Map<PluralCategory, string> {
  const branches = new Map<PluralCategory, string>();
  const plural = singlePlural(message);
  if (!plural) {
    const text =
      plural === undefined ? formatText(parseOrLiteral(message), undefined, interpolation) : message;
    for (const category of categories) branches.set(category, text);
    return branches;
  }
  const { options, value: argument } = plural;
  const textOf = (selector: string) => {
    const option = options[selector];
    return option && formatText(option.value, argument, interpolation);
  };
  // A person's message may lack `other` (a file that had none): its forms are kept, and a
  // category it lacks is left out rather than given a text the message never had.
  const other = textOf('other');
  const zero = textOf('zero') ?? textOf('=0');
  const set = (category: PluralCategory, text: string | undefined) => {
    if (text !== undefined) branches.set(category, text);
  };
  for (const category of PLURAL_CATEGORIES) {
    if (category === 'zero') {
      if (categories.includes('zero')) set('zero', zero ?? other);
      else set('zero', zero);
      continue;
    }
    if (categories.includes(category)) set(category, textOf(category) ?? other);
  }
  return branches;
}

/**
 * The message's one `plural` argument (whitespace around it allowed); undefined for a message
 * with none, null for one that does not parse as ICU (written as it is). Text around the one
 * plural (`Hello {name}, {count, plural, one {# file} other {# files}}`, which a translation may
 * well have) goes into each branch, as formatjs's `hoistSelectors` does: a format's plural forms
 * are whole sentences.
 */
export function singlePlural(message: string): PluralElement | undefined | null {
  let elements: MessageFormatElement[];
  try {
    elements = parse(message, { ignoreTag: true, requiresOtherClause: false });
  } catch {
    return null;
  }
  const plurals = elements.filter((element) => element.type === TYPE.plural);
  const rest = elements.filter((element) => element.type !== TYPE.plural);
  const onlyPlural =
    plurals.length === 1 &&
    plurals[0]!.pluralType === 'cardinal' &&
    rest.every((element) => element.type === TYPE.literal && element.value.trim() === '');
  if (onlyPlural) return plurals[0] as PluralElement;
  const hoistable =
    plurals.length === 1 &&
    plurals[0]!.pluralType === 'cardinal' &&
    rest.every((element) => element.type === TYPE.literal || element.type === TYPE.argument);
  if (!hoistable) return undefined;
  let hoisted: MessageFormatElement | undefined;
  try {
    [hoisted] = hoistSelectors(elements);
  } catch {
    // What formatjs cannot hoist is written as it is, the same text in every form.
    return undefined;
  }
  return hoisted?.type === TYPE.plural ? hoisted : undefined;
}

function parseOrLiteral(message: string): MessageFormatElement[] {
  try {
    return parse(message, { ignoreTag: true, requiresOtherClause: false });
  } catch {
    return [{ type: TYPE.literal, value: message }];
  }
}

/**
 * ICU elements as the format's text: literals as they read, arguments in the format's syntax,
 * `#` as the plural's argument; anything else (a nested select, a formatted number) as ICU.
 */
function formatText(
  elements: readonly MessageFormatElement[],
  pluralArgument: string | undefined,
  interpolation: Interpolation,
): string {
  const { prefix } = interpolation;
  // `%{count}` is `%` then the argument; an argument written without the prefix gets it.
  const argument = (name: string) => `${prefix !== '' && text.endsWith(prefix) ? '' : prefix}{${name}}`;
  let text = '';
  for (const element of elements) {
    if (element.type === TYPE.literal) text += element.value;
    else if (element.type === TYPE.argument) text += argument(element.value);
    else if (element.type === TYPE.pound && pluralArgument !== undefined) text += argument(pluralArgument);
    else text += printAST([element]);
  }
  return text;
}
