/** A target catalog: the source's entries with the target's msgstrs, or the target on disk edited. */
import { pluralCategories } from '@tolk/locale-file';
import { FormatError, keepsUnwritten, type WriteInput } from '../format.js';
import { pluralBranches } from '../plural-message.js';
import { INTERPOLATION, type Part, isFuzzy, isTranslated, parse, safeParse } from './parse.js';
import { templateValue } from './read.js';
import { indexCategories, parsePluralForms, pluralFormsOf, sameLanguage, spelling } from './language.js';
import { entryLines, headerLines, revisionFields, stringLines, withoutSeparatorsOfLeftOut } from './lines.js';
import { editInPlace } from './edit-in-place.js';

export function writePo(input: WriteInput): Buffer {
  const parsed = parse(input.source, '(source)');
  const onDisk = input.existing ? safeParse(input.existing) : undefined;
  const existing = onDisk?.headers;
  const spelled = spelling.spellLocale(input.locale);
  const pluralText =
    (existing?.get('Plural-Forms') && parsePluralForms(existing.get('Plural-Forms')!)
      ? existing.get('Plural-Forms')
      : undefined) ??
    (sameLanguage(parsed.headers.get('Language'), input.locale)
      ? parsed.headers.get('Plural-Forms')
      : undefined) ??
    pluralFormsOf(input.locale);
  const hasPlurals = parsed.parts.some(
    (part) => part.kind === 'entry' && part.entry.msgid_plural !== undefined,
  );
  if (!pluralText && hasPlurals) {
    throw new FormatError(
      '(source)',
      `no gettext Plural-Forms is known for ${input.locale}: give its ${spelled}.po a Plural-Forms header`,
    );
  }
  const pluralForms = pluralText ? parsePluralForms(pluralText) : undefined;
  const indexes = pluralForms ? indexCategories(pluralForms, input.locale) : [];
  const categories = pluralCategories(input.locale, 'cardinal');
  // Another version of this catalog (a merge): its header is the file's own, and an entry it has
  // not translated may be a template's, read as its msgid.
  const sameFile = input.sameFile === true && onDisk !== undefined;
  /** The entry's lines with `value`: as they are when they say it already (and are not fuzzy). */
  const written = (part: Extract<Part, { kind: 'entry' }>, value: string): string[] => {
    const { entry } = part;
    if (sameFile && !isTranslated(entry) && value === templateValue(entry)) return part.lines;
    const msgstr =
      entry.msgid_plural === undefined
        ? [value]
        : (() => {
            const branches = pluralBranches(value, categories, INTERPOLATION);
            return indexes.map((category) => branches.get(category) ?? branches.get('other') ?? value);
          })();
    const same =
      !isFuzzy(entry) &&
      msgstr.length === entry.msgstr.length &&
      msgstr.every((text, index) => text === entry.msgstr[index]);
    return same ? part.lines : entryLines(part, msgstr);
  };
  // DESIGN §16: a target on disk is edited where its translations change, and nowhere else.
  if (onDisk)
    return Buffer.from(
      editInPlace(
        parsed,
        onDisk,
        input.valueOf,
        written,
        sameFile ? undefined : { spelled, pluralText: hasPlurals ? pluralText : undefined },
        input.options.revisionHeader && !sameFile ? revisionFields() : undefined,
        (key) => keepsUnwritten(input, key),
      ).join(onDisk.eol),
      'utf8',
    );
  const out: string[][] = [];
  parsed.parts.forEach((part) => {
    if (part.kind === 'text') return out.push(part.lines);
    if (part === parsed.header)
      return out.push(
        headerLines(
          part,
          parsed,
          spelled,
          pluralText,
          input.options.revisionHeader ? revisionFields() : undefined,
        ),
      );
    const value = part.unread ? undefined : input.valueOf(part.key);
    // Left out with the blank line that separated it from the next entry.
    out.push(value === undefined ? [] : written(part, value));
  });
  const lines = withoutSeparatorsOfLeftOut(parsed.parts, out);
  if (!parsed.header) {
    // A catalog without a header gets one: msgfmt needs the charset and the plural forms.
    const fields = [
      `Language: ${spelled}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=UTF-8',
      'Content-Transfer-Encoding: 8bit',
      ...(pluralText ? [`Plural-Forms: ${pluralText}`] : []),
    ];
    const body = fields.map((field) => `${field}\n`).join('');
    lines.unshift(...stringLines('msgid', '', false), ...stringLines('msgstr', body, true), '');
  }
  return Buffer.from(lines.join(parsed.eol), 'utf8');
}
