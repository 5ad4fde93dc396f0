/**
 * `xcstrings`: an Xcode String Catalog (`Localizable.xcstrings`), DESIGN §12. One file holds every
 * locale of the app: the source language's strings and each target's translations, so the file
 * set's path has no `{locale}` (`oneFileForAllLocales`); reading it for a locale gives that
 * locale's strings, writing a target puts that locale's into the same file.
 *
 * - Parsed with `jsonc-parser` (strict: no comments, no trailing commas) into a tree that keeps the
 *   order of every object and the text of every key and value as the file spells it, so a catalog
 *   Xcode wrote comes back byte for byte (Xcode's layout: two spaces, `"key" : value`, an empty
 *   object as `{` blank line `}`, no final newline; whatever follows the closing brace is kept,
 *   and `\r\n` line ends a checkout gave it). A file laid out otherwise is written in Xcode's
 *   layout, as Xcode itself would save it.
 * - `sourceLanguage` is the locale the file's source strings are in (`sourceLocaleOf`): a project
 *   of another source locale is refused rather than read from the wrong localizations.
 * - `version` must be one Xcode writes (KNOWN_VERSIONS); any other is refused naming it.
 * - Keys are the catalog's keys, made server keys by the rule every free-text format shares
 *   (key-names.ts: `Saved.` keeps its look with U+2024, `items_one` is no i18next form); a key
 *   that rule refuses is refused with its place. The empty key `""` (Xcode
 *   extracts it from `Text("")`) has nothing to translate: it is left out and kept as it is.
 * - The source language's value: its `stringUnit` value, or its `variations.plural` as one ICU
 *   plural message on `count` (each branch's text as it is, `%lld` and `%@` kept for the
 *   placeholder checks), or a format string with `substitutions` (`%#@photos@ in %#@albums@`) as
 *   its text with each `%#@name@` the ICU plural on `name` of that substitution (as `stringsdict`
 *   reads its format key); a key with no source localization is its own text (Xcode's default).
 *   `comment` is the key's description. `extractionState` does not matter: a `stale` string (no
 *   longer found in the code) is still in the catalog and built into the app, so it is translated.
 * - Left out of what is translated, and kept as they are: keys with `shouldTranslate: false`
 *   (no localization is ever written for them), and keys whose source localization is of a shape
 *   not read here (device variations, a substitution that is no plural).
 * - A target's value: its `stringUnit` value (state `translated` or `needs_review`: a value the
 *   user marked for review is still a value), or its plural variations; a unit in state `new`
 *   is no translation yet. A plural whose branches all hold the same text, itself an ICU plural,
 *   reads as that text: a message that is not one plural (text around its plural) is written as
 *   every category's text, as it is.
 * - Findings, each at its place, the rest of the catalog read (DESIGN §15): a key given twice in
 *   one object (the last is kept, as Foundation's JSON reader keeps it), a string that is not an
 *   object or whose key cannot be a key (left out, and kept as it is), a target's plural without
 *   `other` (its forms are kept: an error). Refused (the file does not parse): JSON that does not
 *   parse or is nested deeper than 32 levels, a version Tolk does not know, no `sourceLanguage`
 *   or `strings`.
 * - Writing a target changes only that locale, and only the keys whose value differs from what
 *   the file holds: such a localization gets `stringUnit` state `translated`, or for a plural key
 *   `variations.plural` with the TARGET's CLDR categories (from `pluralBranches`), or for a key
 *   with substitutions the format string and each substitution's plural so; other fields of
 *   the localization, every other locale and every other field stay as they are. An unchanged
 *   value keeps its unit untouched (`needs_review` stays), and so does each plural form whose
 *   text stays when another form of the key changes. A key with no value keeps what the
 *   file has. The catalog is its own source: a key gone from the source is gone from the file
 *   with every localization of it, so no entry is ever removed (WriteInput.synced has nothing
 *   to decide). A new locale is placed among the others in Xcode's order (case-insensitive,
 *   numbers by value, `Intl.Collator`).
 * - Written from another version of the catalog (a merge, `WriteInput.sameFile`): for the source
 *   language, a string it has and the file lacks is copied whole with every localization, and one
 *   it no longer has (synced) goes; for a target, a localization it holds with the value given is
 *   copied as it stands there (its state too).
 */
import type { LocaleFormat } from './format.js';
import { load, spelling } from './xcstrings/catalog.js';
import { readXcstrings } from './xcstrings/read.js';
import { writeXcstrings } from './xcstrings/write.js';

export { KNOWN_VERSIONS } from './xcstrings/catalog.js';

export const xcstringsFormat: LocaleFormat = {
  name: 'xcstrings',
  extensions: ['.xcstrings'],
  oneFileForAllLocales: true,
  /** `pt-BR`, `zh-Hans`: the catalog's localizations are Apple's BCP 47 with `-`. */
  spellLocale: spelling.spellLocale,
  readLocale: spelling.readLocale,
  sourceLocaleOf: (bytes, path) => {
    const { sourceLanguage } = load(bytes, path);
    return spelling.readLocale(sourceLanguage) ?? sourceLanguage;
  },
  read: readXcstrings,
  write: writeXcstrings,
};
