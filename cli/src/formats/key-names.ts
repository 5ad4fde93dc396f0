/**
 * The key of a named entry of a file whose names are free text (DESIGN §12): Apple `.strings` and
 * stringsdict keys (often the English sentence itself), gettext msgids, XLIFF ids, Android
 * resource names. One rule for every such format, so a name is the same key whichever file it
 * comes from:
 *
 * - A name the server's document can hold is its own key (`settings.title`, `Version 2.0`).
 * - A dot that would make an empty segment of the server's dot-path (a leading or final dot, or
 *   one next to another dot: `Saved.`, `...`, `a..b`) is U+2024 ONE DOT LEADER, which looks the
 *   same.
 * - A name ending in `_` and a CLDR plural category (`items_one`, `items_other`) would be read by
 *   the server as a form of an i18next plural group (DESIGN §11), whose targets have forms the
 *   file's format never writes (`items_few`); its last `_` is U+02CD MODIFIER LETTER LOW MACRON,
 *   which looks like it. Files whose keys are i18next keys (`i18next`, `json`, and the formats
 *   that write a group's target forms: `properties`, `yaml`, `arb`) keep their names.
 *
 * A name holding U+2024, or ending in U+02CD and a category, would read as another name's key, and
 * one starting with `@` (an annotation's mark) or empty is no key: `nameProblem` says so, and the
 * format refuses it with its line. The key is never turned back into a name: a target is written
 * from the source file's names, looked up by their keys.
 */
import { PLURAL_CATEGORIES } from '@tolk/locale-file';

export const KEY_DOT = '\u2024';
export const KEY_UNDERSCORE = '\u02CD';

const CATEGORY = `(?:${PLURAL_CATEGORIES.join('|')})`;
/** A dot with no text on one side: at the start, at the end, or next to another dot. */
const EMPTY_SEGMENT_DOT = /(?<=^|\.)\.|\.(?=\.|$)/g;
const PLURAL_SUFFIX = new RegExp(`_(?=${CATEGORY}$)`);
const ESCAPED_SUFFIX = new RegExp(`${KEY_UNDERSCORE}${CATEGORY}$`);

/** The key of the entry named `name` (see above). Only for names `nameProblem` accepts. */
export function keyOfName(name: string): string {
  return name.replace(EMPTY_SEGMENT_DOT, KEY_DOT).replace(PLURAL_SUFFIX, KEY_UNDERSCORE);
}

/** Why `name` can be no key, as the end of "… cannot be a key: it …"; undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name.startsWith('@')) return 'starts with @, which marks annotations';
  if (name.includes(KEY_DOT)) return 'holds U+2024 (one dot leader), which keys use for a dot';
  if (ESCAPED_SUFFIX.test(name)) {
    return 'ends in U+02CD (modifier letter low macron) and a plural category, which keys use for "_"';
  }
  return undefined;
}
