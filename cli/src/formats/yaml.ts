/**
 * `yaml`: a nested YAML locale file, plain (`locales/en.yml`) or Rails (`config/locales/en.yml`,
 * the locale as the one root key: `en:`), DESIGN §12.
 *
 * Read and written with the `yaml` package. The file is parsed once into its concrete syntax tree
 * (CST, every byte of the file) and composed from it into a Document whose nodes point back at
 * their CST tokens (`keepSourceTokens`). Reading walks the Document. Writing edits the source's
 * CST in place, each changed scalar through `CST.setScalarValue` (which keeps the scalar's style),
 * removes the items of keys with no value, and prints the CST back: what is not changed is the
 * source's own bytes, comments, blank lines, quoting and block scalars included. (Printing the
 * Document itself would re-flow it: long lines folded, spacing after `:` normalised.) A target
 * on disk is then edited in place to hold what that gives (`editInPlace`, DESIGN §16).
 *
 * - Comments before a key and after its value on the same line are its context (`@key`
 *   description); in a Rails file, the comments above the locale key are the file's, not a key's.
 * - A mapping whose keys are CLDR plural categories, `other` and at least one more (Rails'
 *   `one:` / `other:`, also go-i18n's, Hugo's and i18n-js's YAML), is one key whose value is an
 *   ICU plural message on `count`, and is written back with the target's categories. This is for
 *   plain YAML too: no YAML localisation library gives such a mapping another meaning. In a Rails
 *   file, `other:` alone (Japanese) is a plural too, and so are two or more categories without
 *   `other`: their forms are kept, and the missing `other` is an error finding (Rails raises
 *   for a count no form covers).
 * - Rails files are read as Ruby reads them, YAML 1.1 (`no` is false). Their values that are not
 *   text (`number.format.precision: 2`, `significant: false`, `~` in `abbr_day_names`, Ruby
 *   symbols `:year` in `date.order`) are Rails' own settings: they are kept as they are in every
 *   target and never sent for translation. In a plain YAML file such a value is a finding and
 *   left out: a locale file holds texts, and a number or boolean there is most often text that
 *   lost its quotes.
 * - A changed value keeps its scalar's style where that style can hold it: a plain scalar that
 *   would read as something else than the text (`yes`, `12`, `:)`, or a line break) is written
 *   double-quoted, checked against both YAML 1.1 (Ruby, PyYAML) and 1.2 readers.
 * - A sequence with an element missing in the target is left out as a whole: the elements after
 *   a gap would shift to other indexes.
 * - What YAML allows and Tolk does not expect is a finding at its place, and the rest is read
 *   (DESIGN §15): a key given twice (the last value is kept, as Ruby's Psych and PyYAML keep it),
 *   an alias (`*name`: it stays as it is in targets, sharing the text of its anchor, which is
 *   translated where it stands; aliases are never expanded, so anchors that would expand
 *   without bound cost nothing), a merge key (`<<: *defaults`), a tag the core schema does not
 *   know, a key that is no text or cannot be a key, several documents (the first is read, as
 *   Ruby reads it).
 * - Refused (the file does not parse): a YAML syntax error, and for Rails a root that is not one
 *   key naming the file's locale.
 */
import { parseTargetLocale } from '@tolk/contracts';
import type { LocaleFormat, ReadInput, WriteInput } from './format.js';
import { load, spellLocale } from './yaml/document.js';
import { readMap } from './yaml/read.js';
import { writeFromSource } from './yaml/write.js';
import { editInPlace } from './yaml/edit-in-place.js';

export const yamlFormat: LocaleFormat = {
  name: 'yaml',
  extensions: ['.yml', '.yaml'],
  spellLocale,
  readLocale(spelled) {
    const parsed = parseTargetLocale(spelled);
    return parsed.ok ? parsed.locale : undefined;
  },
  read: readYaml,
  write: writeYaml,
};

function readYaml(input: ReadInput): Record<string, unknown> {
  const loaded = load(input.bytes, input.path, input.locale, input.options, input);
  const document = loaded.keys ? readMap(loaded, loaded.keys, '') : {};
  return document;
}

function writeYaml(input: WriteInput): Buffer {
  const written = writeFromSource(input);
  if (!input.existing) return written;
  return editInPlace(input.existing, written, input) ?? written;
}
