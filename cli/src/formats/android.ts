/**
 * `android`: an Android string resource file (`res/values/strings.xml`, `res/values-pt-rBR/…`),
 * DESIGN §12.
 *
 * Parsed with `@xmldom/xmldom` for what the file means (its elements, text, CDATA, entities and
 * well-formedness, with the line and column of an error) and its node positions; a target is
 * written by editing the source's text at those positions, so everything Tolk does not change
 * keeps its bytes (entities, attribute quoting, comments, blank lines, the text after the root),
 * which a DOM serializer would not. A file with a DOCTYPE is refused: no DTD, no entity of one
 * (no XXE); xmldom resolves no external entity in any case.
 *
 * - `<string name="k">` is the key `k`; `<string-array name="k">`'s items are `k.0`, `k.1`, …;
 *   `<plurals name="k">` is one key whose value is an ICU plural message of its quantities,
 *   written back with the target's CLDR categories. A name ending in an i18next plural suffix
 *   (`items_one`) is an ordinary string in Android: its key is escaped (`key-names.ts`) so that
 *   the server never takes it for a plural form.
 * - Values are what the app shows: Android's escapes (`\'`, `\"`, `\\`, `\n`, `\t`, `\uXXXX`,
 *   `\@`, `\?`) and quoting (`"…"` keeps whitespace) read, unquoted whitespace collapsed as
 *   aapt2 does; written back escaped. Inline markup (`<b>`, `<xliff:g id="x">%1$s</xliff:g>`)
 *   stays in the value as it is written, so the placeholder checks see it. A value that is one
 *   CDATA section is its text, and the target's is written in one again.
 * - `translatable="false"` entries, references (`@string/other`, `?attr/x`) and other resource
 *   types (`color`, `dimen`, …) are no text to translate: out of the document and the targets
 *   (the app takes them from the default resources).
 * - The comments right above an element (no blank line between) are its context.
 * - A target keeps the source's layout; an element whose key has no value is left out with its
 *   comments, and so is a string array one of whose items has none (Android takes an array whole
 *   from one directory).
 * - Locales as Android's resource directories spell them: `pl`, `pt-rBR`, `b+zh+Hant`.
 * - What aapt2 or Android allow and Tolk does not expect is a finding on its key at its line, and
 *   the rest of the file is read (DESIGN §15): a `<plurals>` without `other` (its quantities are
 *   kept: an error, the app has no text for the counts `other` covers), a name given twice or a
 *   quantity given twice (the first is kept; aapt2 refuses the file: an error), an element or
 *   quantity Tolk does not read, a resource that may hold text Tolk does not read (`<item
 *   type="string">`, `<array>`), an element without a name. Only a file that is not well-formed
 *   XML (or has a DOCTYPE, or no `<resources>` root) is refused.
 */
import { parseTargetLocale } from '@tolk/contracts';
import type { LocaleFormat, ReadInput, WriteInput } from './format.js';
import { documentOf, load } from './android/load.js';
import { writeResources } from './android/write.js';

export const androidFormat: LocaleFormat = {
  name: 'android',
  extensions: ['.xml'],
  spellLocale,
  readLocale,
  read(input: ReadInput) {
    return documentOf(load(input.bytes, input.path, input));
  },
  write(input: WriteInput) {
    return Buffer.from(writeResources(input), 'utf8');
  },
};

/** `pt-BR` → `pt-rBR`; a locale with a script or a numeric region in BCP 47 form: `b+zh+Hant`. */
function spellLocale(locale: string): string {
  const parts = locale.split('-');
  if (parts.length === 1) return locale;
  if (parts.length === 2 && /^[A-Z]{2}$/.test(parts[1]!) && /^[a-z]{2,3}$/.test(parts[0]!)) {
    return `${parts[0]}-r${parts[1]}`;
  }
  return `b+${parts.join('+')}`;
}

function readLocale(spelled: string): string | undefined {
  let code: string;
  if (spelled.startsWith('b+')) code = spelled.slice(2).replaceAll('+', '-');
  else {
    const match = /^([a-z]{2,3})(?:-r([A-Z]{2}))?$/.exec(spelled);
    if (!match) return undefined;
    code = match[2] ? `${match[1]}-${match[2]}` : match[1]!;
  }
  const parsed = parseTargetLocale(code);
  return parsed.ok && spellLocale(parsed.locale) === spelled ? parsed.locale : undefined;
}
