/**
 * `xliff`: an XLIFF 1.2 or 2.0 file (Angular's `messages.xlf` / `messages.pl.xlf`), DESIGN §12.
 * The version is read from the root `<xliff version>`: 1.2, or 2.0 / 2.1 (2.1 only adds modules).
 *
 * Parsed with `saxes`, a maintained, strict (well-formedness-checking) SAX parser that reports
 * the exact offset of every tag: the file is then written back by editing it at those offsets,
 * so everything Tolk does not change keeps its bytes (a DOM serializer would re-escape text and
 * re-quote attributes). saxes reads no DTD and resolves no external entity; a file with a
 * `<!DOCTYPE>` is refused outright (XLIFF has none), so there is no XXE.
 *
 * - Keys are the ids of `<trans-unit>` (1.2) / `<unit>` (2.0): flat, like Java properties (the
 *   server keeps dotted names as they are), escaped where the locale document cannot hold them as
 *   they are (`Saved.`, a final i18next plural suffix: `key-names.ts`). Ids must be unique in the
 *   whole file, across `<file>` elements too (a key names one text); units with
 *   `translate="no"` (on the unit or a `<group>` around it) are not keys. A 2.0 unit has one
 *   segment (what Angular writes).
 * - Values are the `<source>` texts; read as a target locale's file (its target language that
 *   locale, see `isTargetFile`), the `<target>` texts, inline codes read back as the source's
 *   tokens; a unit with no target, an empty one or one not translated (1.2 `new`,
 *   `needs-translation`, 2.0 `initial`) has no value. A 2.0 segment without `state` and with a
 *   target is read as translated: the specification's default is `initial`, but Angular (and
 *   every tool that writes 2.0 without states) uses any target it finds.
 * - The unit's notes (1.2 `<note>`, 2.0 `<notes><note>`) are its context; Angular's meaning is
 *   prefixed `meaning:`.
 * - Inline codes (`<x id="INTERPOLATION" equiv-text="{{ name }}"/>`, `<ph>`, `<bpt>`, 2.0
 *   `<ph/>`, `<sc/>`, ...) become numbered empty tags, `<x1/>`, `<x2/>`; paired codes (`<g>`,
 *   `<pc>`, `<mrk>`) become `<g3>…</g3>`. The server's placeholder scanner compares tags by name
 *   and kind only, so the literal `<x id="A"/>` and `<x id="B"/>` would look alike and a
 *   translation that swapped or dropped one would pass; numbered names keep each code distinct.
 *   A target writes each code back exactly as the source has it (the source's own markup, per
 *   unit); the text around them is XML-escaped. What a code stands for (`equiv-text`, `equiv`,
 *   `disp`) is added to the context.
 * - A target: 1.2 `target-language` on every `<file>`, 2.0 `trgLang` on `<xliff>`; each unit
 *   gets a `<target>` after its `<source>` (or in place of the one the source has), marked
 *   translated (1.2 `<target state="translated">`, 2.0 `<segment state="translated">`): Tolk's
 *   translations are never final (`final` / `signed-off` are for the reviewer's tools). A unit
 *   with no value is left out; a 1.2 unit's `<alt-trans>` stays as it is. The target file on
 *   disk (`existing`) keeps what a reviewer settled: a target marked `final` or `signed-off`
 *   (1.2 `<target state>`, 2.0 `<segment state>`) is written as it is there, with its state,
 *   whatever the server has, and so is the target of a unit not to be translated (which Tolk
 *   never writes one for). Written for the source's own locale, the `<source>` texts are what
 *   change, so the source comes back byte for byte.
 * - A target file on disk that parses is edited in place (DESIGN §16, `editInPlace`): only the
 *   units whose translation (or `<source>`) changes, comes or goes change; a unit on disk with no
 *   translation that Tolk has none for either (no target, or one marked `new`) stays as it is.
 *   One that does not parse is refused, not overwritten. Written from another version of the same
 *   file (a merge, `WriteInput.sameFile`), its languages stay, the source locale's own file is
 *   edited in place by its `<source>` texts, and a unit (or target) the other version holds with
 *   the value given is copied as it stands there.
 * - Findings, each at its unit, the rest of the file read (DESIGN §15): an id given twice (the
 *   first unit is kept, as Angular's loader keeps it; it stops the build: an error), a unit
 *   without id or `<source>`, an id the locale document cannot hold, a 2.0 unit of several
 *   segments, a text that reads as a token (`&lt;x1/&gt;`): each such unit is left out, of the
 *   document and of targets.
 * - Refused (the file does not parse): malformed XML (line and column), a DTD (no entity of one
 *   is ever read, so no entity bomb), a root that is not `<xliff>`, an unknown version.
 */
import { bcp47Spelling } from './bcp47-spelling.js';
import type { LocaleFormat, ReadInput } from './format.js';
import { parse } from './xliff/parse.js';
import { isTargetFile, translationOf } from './xliff/targets.js';
import { writeXliff } from './xliff/write.js';

export const xliffFormat: LocaleFormat = {
  name: 'xliff',
  extensions: ['.xlf', '.xliff'],
  /** Angular's spelling: `messages.pt-BR.xlf`. */
  ...bcp47Spelling('-'),
  read(input: ReadInput) {
    const { bytes, path, locale } = input;
    const document: Record<string, unknown> = {};
    for (const unit of parse(bytes, path, input).units) {
      if (!unit.translatable) continue;
      const value = isTargetFile(unit, locale) ? translationOf(unit) : unit.value;
      if (value === undefined) continue;
      document[unit.key] = value;
      const context = [
        ...unit.notes,
        ...unit.codes.flatMap((code) => (code.equiv ? [`${code.token} stands for ${code.equiv}`] : [])),
      ];
      if (context.length > 0) document[`@${unit.key}`] = { description: context.join('\n') };
    }
    return document;
  },
  write: writeXliff,
};
