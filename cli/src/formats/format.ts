/**
 * The one contract every file format of the CLI keeps (DESIGN §12). The server holds one JSON
 * locale document per project; a format maps one file of an app onto a part of that document
 * and back. Adding a format is adding a module that implements `LocaleFormat` and registering it
 * in `formats/index.ts`; nothing else in the CLI changes.
 *
 * - `read` turns a file into a **locale document**: the JSON the server's `parseSourceDocument`
 *   accepts (nested objects, string leaves). Comments and notes of the file become ARB-style
 *   annotations (`"@key": { "description": "..." }`), which reach the model as context. Plural
 *   structures of the format (a Rails hash of CLDR categories, Android `plurals`, PO plural
 *   entries, ...) become one key whose value is an ICU plural message (`{count, plural, one
 *   {...} other {...}}`); i18next plural keys stay keys (DESIGN §11).
 * - `write` writes a **target file**: it is given the source file itself, the target file on disk
 *   when there is one (`existing`), and the value of each key (the flattened key paths of what
 *   `read` made of the source) for the target locale. Keys with no value are left out. A new target
 *   is written in the source file's layout; one on disk is edited in place (DESIGN §16: json,
 *   i18next, arb, yaml and Rails, po, android, properties, strings, stringsdict, xliff, and
 *   xcstrings per language): only the entries whose translation changes, comes or goes change,
 *   everything else stays byte for byte. An entry of the file whose key the source lacks goes
 *   only when Tolk synced that key for the locale (`synced`: it was a source key, and is gone
 *   from the source), with the comment lines attached to it; a key Tolk never synced (a
 *   translator's own, or a stray) is kept byte for byte, and `tolk check` reports it as extra. A
 *   key the source has and no value is given for, and a form of a source's plural group the
 *   locale does not use (i18next's `item_few` in German), are the source's: they go, synced or
 *   not (keepsUnwritten). A plural structure comes back in the
 *   format's own structure with the target's CLDR categories, taken from the ICU message.
 *   Written from a source file and its own values, a format gives back the same bytes wherever
 *   the format allows (indentation, key order, comments, final newline).
 * - A file is judged by its entries (DESIGN §15). Only a file that does not parse in its format at
 *   all is a `FormatError`, naming the line and column. An entry the format allows but Tolk does
 *   not expect (a plural without `other`, a key given twice, an element Tolk does not read) is a
 *   `FileFinding` on its key, reported through `ReadInput.findings`, and the rest of the file is
 *   read: a plural keeps the forms it has, a key given twice the value the platform keeps, and
 *   what Tolk does not read is left out.
 */
import { unusedPluralForms, type TargetKeys } from '@tolk/locale-file';

export const FORMAT_NAMES = [
  'json',
  'i18next',
  'arb',
  'yaml',
  'properties',
  'po',
  'strings',
  'stringsdict',
  'xliff',
  'android',
  'xcstrings',
] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** Per file set, from `tolk.json`: what a format may be told beyond its name. */
export type FormatOptions = {
  /** `properties`: the files' encoding; UTF-8 unless the app says otherwise. */
  encoding?: 'utf-8' | 'iso-8859-1';
  /**
   * `yaml`: a Rails locale file (`config/locales/en.yml`): the locale is its one root key, read
   * and written as YAML 1.1 (as Ruby reads it), and values that are not text (Rails' number
   * and date settings) are kept in targets. Plain nested YAML otherwise.
   */
  rails?: boolean;
  /**
   * `po`: a catalog whose translations Tolk writes gets the header's `PO-Revision-Date` (now) and
   * `Last-Translator` (`Tolk`), as a translator's editor sets them. Off by default: the header
   * stays as the catalog's translators left it (DESIGN §16).
   */
  revisionHeader?: boolean;
};

export type ReadInput = {
  /** The file's bytes, as on disk. */
  bytes: Buffer;
  /** The file's locale, canonical BCP 47 (`pt-BR`). */
  locale: string;
  /** Where the file is, as the user sees it: for error messages. */
  path: string;
  options: FormatOptions;
  /**
   * The file is the project's source file. A format whose entries hold the source text apart
   * from its translation (gettext's msgid and msgstr) then reads an untranslated entry as its
   * source text: a source-language catalog (Django's `locale/en/LC_MESSAGES/django.po`) leaves
   * its msgstrs empty.
   */
  source?: boolean;
  /** Where `read` reports the file's findings (`addFinding`); not reported when absent. */
  findings?: FileFinding[];
};

/**
 * The kinds of a file's findings, beyond those of a value's text (`icu`, `placeholder`, ...):
 * `duplicate`, a key given twice; `plural`, a plural structure without `other`; `format`, an
 * entry or element Tolk does not read (or reads past), left out.
 */
export const FILE_FINDING_KINDS = ['duplicate', 'plural', 'format'] as const;
export type FileFindingKind = (typeof FILE_FINDING_KINDS)[number];

/**
 * What a file holds that its format allows and Tolk does not expect (DESIGN §15): the shape of
 * a translation's findings (key, kind, severity, message) and where it is. An error is what breaks
 * or misleads at run time (the platform refuses the file, a plural without `other`); a warning
 * what the platform reads past (a duplicate it keeps one of, an entry it does not use).
 */
export type FileFinding = {
  /** The key of the file's locale document it is about; null for the file as a whole. */
  key: string | null;
  kind: FileFindingKind;
  severity: 'error' | 'warning';
  message: string;
  /** The file as the user sees it (`ReadInput.path`). */
  file: string;
  line: number;
  column: number;
};

/** At most this many findings of one file are kept: a file of a million duplicates says so once. */
export const MAX_FILE_FINDINGS = 1000;

/** Reports a finding of the file being read, while it has fewer than MAX_FILE_FINDINGS. */
export function addFinding(
  input: Pick<ReadInput, 'path' | 'findings'>,
  finding: Omit<FileFinding, 'file'>,
): void {
  const sink = input.findings;
  if (!sink || sink.length > MAX_FILE_FINDINGS) return;
  if (sink.length === MAX_FILE_FINDINGS) {
    sink.push({
      key: null,
      kind: finding.kind,
      severity: 'warning',
      message: `more than ${MAX_FILE_FINDINGS} findings in this file; the rest are not listed`,
      file: input.path,
      line: finding.line,
      column: finding.column,
    });
    return;
  }
  sink.push({ ...finding, file: input.path });
}

export type WriteInput = {
  /** The source file, read from disk: the layout the target keeps. */
  source: Buffer;
  sourceLocale: string;
  /** The target locale, canonical BCP 47. */
  locale: string;
  /**
   * The target's value of a flattened key of the source's document (as `read` made it), or
   * undefined when the target has none (the key is then left out of the file). For an i18next
   * plural group, asked for the target's own form keys (`item_few`): see `target`.
   */
  valueOf: (key: string) => string | undefined;
  /** The target locale's keys (`targetKeys` of the source document): its plural forms. */
  target: TargetKeys;
  /** The target file as it is on disk, when there is one (formats that keep other content in it). */
  existing?: Buffer;
  /**
   * Whether Tolk synced a key of `existing` for the locale (`.tolk/state.json`), asked for the
   * format's own flattened keys (as `read` makes them) that the source lacks: such an entry is
   * removed when synced (gone from the source) and kept as it is when not. Absent: nothing was
   * synced, and every such entry is kept.
   */
  synced?: (key: string) => boolean;
  /**
   * `source` is not the source locale's file but another version of this very file: the other
   * side of a merge (DESIGN §17), which `existing` takes the changes of. An entry `existing` lacks
   * is then copied from it as it stands there (its comments, quoting and state) where it holds the
   * value given, and `existing` keeps its own header and metadata. A file of the source locale
   * (`locale` is `sourceLocale`) is then edited in place as a target is.
   */
  sameFile?: boolean;
  options: FormatOptions;
};

/**
 * Whether an entry of an existing target that is not written stays as it is (DESIGN §16): its key
 * is not the source's (neither a target key nor a form of a source plural group the locale does
 * not use) and Tolk never synced it for the locale. Every other entry not written is removed.
 */
export function keepsUnwritten(input: Pick<WriteInput, 'target' | 'synced'>, key: string): boolean {
  const { target } = input;
  if (target.byKey.has(key)) return false;
  if (target.groups.length > 0 && unusedPluralForms(target, [key]).length > 0) return false;
  return !(input.synced?.(key) ?? false);
}

export interface LocaleFormat {
  readonly name: FormatName;
  /** File name endings this format reads, for `tolk init` (`.json`, `.arb`, `.yml`). */
  readonly extensions: readonly string[];
  /**
   * One file holds every locale (an Xcode String Catalog): the file set's path has no `{locale}`,
   * `read` gives the locale it is asked for, and `write` puts one target into the file as it is
   * now (`existing`), keeping the others.
   */
  readonly oneFileForAllLocales?: boolean;
  /**
   * The locale a file says its source strings are written in (an Xcode String Catalog's
   * `sourceLanguage`), for formats whose files name it: the project's source locale must be it.
   * Throws FormatError.
   */
  sourceLocaleOf?(bytes: Buffer, path: string): string;
  /** How files of this format spell a locale in their paths: `pt-BR` → `pt_BR` (ARB). */
  spellLocale(locale: string): string;
  /**
   * The canonical locale a path's spelling stands for (`pt_BR` → `pt-BR`), or undefined when
   * it spells none.
   */
  readLocale(spelled: string): string | undefined;
  /** The file as a locale document, its findings in `input.findings`. Throws FormatError. */
  read(input: ReadInput): Record<string, unknown>;
  /** The target file's bytes. */
  write(input: WriteInput): Buffer;
}

/** A file that does not parse in its format: where, and why. */
export class FormatError extends Error {
  readonly code = 'INVALID_FILE';
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly position?: { line: number; column: number },
  ) {
    super(`${path}${position ? `:${position.line}:${position.column}` : ''}: ${reason}`);
    this.name = 'FormatError';
  }
}
