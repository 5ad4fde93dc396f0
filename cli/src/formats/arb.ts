import { parseTargetLocale } from '@tolk/contracts';
import { rebuildTranslation } from '@tolk/locale-file';
import { bcp47Spelling } from './bcp47-spelling.js';
import { addFinding, keepsUnwritten, type LocaleFormat, type ReadInput } from './format.js';
import { readJsonFile, readJsonSource, withFileNames, writeJsonFile } from './json-document.js';
import { editJsonFile } from './json-edit.js';
import { positionIn } from './utf8.js';

const LOCALE_METADATA = '@@locale';
const spelling = bcp47Spelling('_');

/**
 * Flutter's Application Resource Bundle (`lib/l10n/app_pt_BR.arb`), as `flutter gen-l10n` reads
 * it (flutter_tools' gen_l10n_types.dart):
 * - Locales are spelled with underscores, in file names and in `@@locale` (`pt_BR`, `zh_Hant`):
 *   gen-l10n refuses a file whose `@@locale` differs from the locale its name ends with.
 * - Messages are strings (ICU MessageFormat for plurals and selects, which stay one key); a
 *   nested object is no message: a finding at its line and column, left out.
 * - An `@@locale` naming another locale than the file's is an error finding (gen-l10n stops on
 *   it); the file is still read as the locale its name says.
 * - `@key` metadata (`description`, `placeholders` with their `type`/`format`, ...) and other
 *   `@@` metadata are carried into every target next to their messages. gen-l10n takes
 *   descriptions and placeholder types from the template file only and ignores them elsewhere,
 *   so this costs nothing there; it keeps each target a complete ARB file for the tools that
 *   read one file at a time (arb-editor's checks, translation tools, a target promoted to
 *   template), whose plural and select placeholders stay typed; and the source written back from
 *   its own values is the same bytes. The annotation of a message left out is left out too.
 * - A target file that exists is edited in place (json-edit.ts, DESIGN §16): its `@@locale` and
 *   other metadata stay as they are, and so does the `@key` metadata of every message not written;
 *   a message written (new or changed) gets the source's.
 */
export const arbFormat: LocaleFormat = {
  name: 'arb',
  extensions: ['.arb'],
  ...spelling,
  read(input) {
    const { bytes, path, locale, findings } = input;
    const { document } = readJsonFile(bytes, path, { flat: true, ...(findings ? { findings } : {}) });
    const declared = document[LOCALE_METADATA];
    if (declared !== undefined) checkDeclaredLocale(declared, locale, input, bytes);
    return document;
  },
  write(input) {
    const { source, locale, valueOf, target, existing } = input;
    const { parsed, style } = readJsonSource(source, { flat: true });
    const document = rebuildTranslation(parsed, valueOf, {
      locale: spelling.spellLocale(locale),
      target,
      annotations: true,
    });
    const edited =
      existing &&
      editJsonFile(
        existing,
        withFileNames(document) as Record<string, unknown>,
        (key) => keepsUnwritten(input, key),
        input.sameFile ? source : undefined,
      );
    return edited ?? writeJsonFile(document, style);
  },
};

/** `@@locale` must name the file's locale: gen-l10n stops on a mismatch with the file name. */
function checkDeclaredLocale(declared: unknown, locale: string, input: ReadInput, bytes: Buffer): void {
  const parsed = typeof declared === 'string' ? parseTargetLocale(declared.replaceAll('_', '-')) : undefined;
  if (parsed?.ok && parsed.locale === locale) return;
  const text = bytes.toString('utf8');
  const at = Math.max(text.indexOf(`"${LOCALE_METADATA}"`), 0);
  addFinding(input, {
    key: null,
    kind: 'format',
    severity: 'error',
    message:
      `@@locale is ${JSON.stringify(declared)}, but the file is the ${locale} file ` +
      `(expected "${spelling.spellLocale(locale)}"; Flutter's gen-l10n refuses a mismatch)`,
    ...positionIn(text, at),
  });
}
