/**
 * `stringsdict`: an Apple plural rules file (`en.lproj/Localizable.stringsdict`), DESIGN §12.
 *
 * Parsed and built with `plist` (maintained; it parses with @xmldom/xmldom, which reads the
 * DOCTYPE but never loads an external DTD or entity, so no XXE). Each entry of the root dict is
 * one key of the locale document, holding an ICU message made of its format key:
 *
 * - `NSStringLocalizedFormatKey` exactly `%#@items@` (one variable): the key's value is the
 *   variable as an ICU plural on its own name: `{items, plural, one {%d item} other {%d items}}`;
 * - any other format key (`%@ has %#@files@ in %#@folders@`): its text with each `%#@var@` replaced
 *   by that variable's ICU plural, the text around it quoted for ICU where needed.
 *
 * The branch texts keep Apple's placeholders (`%d`, `%lld`, `%@`, `%1$@`) as text; the server's
 * placeholder scanner checks them. A target entry is written with the TARGET's categories
 * (CLDR, in CLDR order), each from the message's branch (or `other`), after the variable's
 * `NSStringFormatSpecTypeKey` and `NSStringFormatValueTypeKey`; a language with only `other`
 * that dropped the plural gets its text as the format key. The source's XML declaration and
 * DOCTYPE are written back as they are, and its indentation (a tab as Xcode writes, or spaces),
 * so a source written with its own values is the same bytes when it was laid out as Xcode and
 * `plist` lay out plists. Keys with no value are left out. A target on disk that parses is edited
 * in place instead (DESIGN §16, `editedTarget`): its prolog, DOCTYPE, comments, indentation and
 * line endings stay, and only the entries whose forms change, come or go change. A byte order mark
 * is read past and kept.
 *
 * An entry's key is its key in the file, escaped where the locale document cannot hold it as it
 * is (`"%d files deleted."`, a final i18next plural suffix: `key-names.ts`).
 *
 * Findings, each at its entry's `<key>`, the rest of the file read (DESIGN §15): an entry that is
 * not a dict, has no `NSStringLocalizedFormatKey`, names a variable that is not a dict with
 * `NSStringFormatSpecTypeKey` = `NSStringPluralRuleType`, or whose key cannot be a key (left out);
 * a variable without `other` (its forms are kept: an error, Foundation has no text for the counts
 * `other` covers).
 *
 * Refused (the file does not parse): XML that is not well-formed or names an entity it does not
 * define (line and column; checked by xmldom strictly before `plist` reads it), a DOCTYPE with
 * declarations of its own (how an entity bomb comes; Apple's DOCTYPE has none), a root that is not
 * a dict.
 */
import { lprojSpelling } from './bcp47-spelling.js';
import type { LocaleFormat, ReadInput } from './format.js';
import { define, load } from './stringsdict/load.js';
import { writeStringsdict } from './stringsdict/write.js';

export const stringsdictFormat: LocaleFormat = {
  name: 'stringsdict',
  extensions: ['.stringsdict'],
  ...lprojSpelling,
  read(input: ReadInput) {
    const loaded = load(input.bytes, input.path, input);
    const document: Record<string, unknown> = {};
    for (const entry of loaded.entries) define(document, entry.key, entry.message);
    return document;
  },
  write: writeStringsdict,
};
