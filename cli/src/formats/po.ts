/**
 * `po`: a gettext catalog (`messages.pot` as the source, or a source-language `en.po`; targets
 * `pt_BR.po`), DESIGN §12.
 *
 * Each entry is parsed with `gettext-parser` (escapes, continued strings, comments, flags); the
 * file is cut into entries here, line by line, so that a target keeps the source's lines: its
 * comments, references, flags, wrapping and order. `gettext-parser`'s compiler would regroup
 * entries by context, move `#.` below `#:` and rewrap every string, so it is not used to write.
 *
 * - Keys: the msgid, or `msgctxt` U+0004 msgid (gettext's own separator) when there is a context.
 *   A dot the server's dot-path cannot hold (`Saved.`, `...`) and a final i18next plural suffix
 *   (`items_one`) are escaped in the key as for every free-text format (`key-names.ts`); a msgid
 *   holding U+0004 or the escapes' characters itself, or starting with `@` (an annotation's
 *   mark), is refused.
 * - Values: the msgstr when there is one (and the entry is not `#, fuzzy`); otherwise the msgid
 *   when the file is a template (a `.pot`, or a header with no `Language`) or the project's source
 *   (Django's `locale/en/LC_MESSAGES/django.po`, its msgstrs empty); otherwise none.
 * - `#.` and `#` comments are the key's description; `#:` references and other flags are kept.
 * - `msgid_plural`: an ICU plural (`one` = msgid, `other` = msgid_plural, printf `%d` kept as
 *   text); in a target, `msgstr[n]` in the order of the target language's `Plural-Forms`.
 *   The `Plural-Forms` header is the target file's own when it has one, else gettext's for the
 *   language (PLURAL_FORMS below, from the gettext manual's table and CLDR). Index `n` takes the
 *   CLDR category `Intl.PluralRules` gives the first count 0..1000 the expression sends to `n`
 *   (the mapping is computed, so it follows the expression, whatever its order).
 * - Targets: `Language: pt_BR` and `Plural-Forms` set in the header; entries with no value left
 *   out; `fuzzy` removed from the entries Tolk writes.
 * - Round trip: a source-language PO written with its own values gives back its bytes (line
 *   ends, wrapping, comments); an entry whose value changed gets its msgstr lines rewritten,
 *   wrapped at 79 columns as gettext's tools wrap. A POT cannot come back as itself: a target
 *   has msgstrs, and its header gets `Language` and `Plural-Forms`.
 * - Written from another version of the same catalog (a merge, `WriteInput.sameFile`), the
 *   header stays as it is, and an entry the catalog has not translated that a template reads as
 *   its msgid keeps its lines.
 * - An ICU `#` in a plural branch is written `{count}` (gettext has no such sign).
 * - Untranslated: an empty msgstr and a `#, fuzzy` entry (gettext uses neither at run time) have
 *   no value in a target; a plural's empty `msgstr[n]` is a form it lacks.
 * - Findings, each at its line, the rest of the file read (DESIGN §15): an entry given twice (same
 *   msgctxt and msgid; the first is kept, as `msguniq --use-first`; msgfmt refuses the catalog,
 *   so it is an error), a header line that is not `Name: value` (left out), a `Plural-Forms`
 *   with no `nplurals` and `plural` or one that does not evaluate (the plural entries are then
 *   left out: which form is which is unknown), a plural whose `other` form is empty, a msgid that
 *   cannot be a key.
 * - Refused (the file does not parse): a PO syntax error, a charset other than UTF-8, bytes that
 *   are not UTF-8 (UTF-16, binary), each with its line.
 */
import type { LocaleFormat } from './format.js';
import { spelling } from './po/language.js';
import { readPo } from './po/read.js';
import { writePo } from './po/write.js';

export { parsePluralForms, indexCategories, pluralFormsOf } from './po/language.js';

export const poFormat: LocaleFormat = {
  name: 'po',
  extensions: ['.po', '.pot'],
  spellLocale: spelling.spellLocale,
  readLocale: spelling.readLocale,
  read: readPo,
  write: writePo,
};
