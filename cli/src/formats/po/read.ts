/** A catalog read into a locale document: msgstrs (or msgids), plurals as ICU messages, comments. */
import type { PluralCategory } from '@tolk/locale-file';
import type { ReadInput } from '../format.js';
import { icuPluralMessage } from '../plural-message.js';
import type { PoEntry } from 'gettext-parser';
import { INTERPOLATION, isTranslated, parse, report } from './parse.js';
import { indexCategories, parsePluralForms } from './language.js';

export function readPo(input: ReadInput): Record<string, unknown> {
  const parsed = parse(input.bytes, input.path, input);
  const template = input.path.endsWith('.pot') || !parsed.headers.get('Language') || input.source === true;
  const pluralForms = parsePluralForms(parsed.headers.get('Plural-Forms') ?? '');
  const document: Record<string, unknown> = {};
  for (const part of parsed.parts) {
    if (part.kind !== 'entry' || part === parsed.header || part.unread) continue;
    const { entry } = part;
    const translated = isTranslated(entry);
    let value: string | undefined;
    if (entry.msgid_plural !== undefined) {
      if (parsed.brokenPluralForms && translated) value = undefined;
      else if (translated && pluralForms) {
        const categories = indexCategories(pluralForms, input.locale);
        const branches: [PluralCategory, string][] = [];
        categories.forEach((category, index) => {
          const text = entry.msgstr[index] ?? '';
          // An empty form is one gettext shows the msgid for: not translated.
          if (text !== '' && !branches.some(([seen]) => seen === category)) branches.push([category, text]);
        });
        // gettext's forms of some languages have no `other` (Polish: integers only); one that has
        // it and leaves it empty shows the msgid_plural for most counts.
        if (categories.includes('other') && !branches.some(([category]) => category === 'other')) {
          report(
            input,
            part.key,
            'plural',
            'error',
            `msgstr[${categories.lastIndexOf('other')}], the "other" form (${input.locale}), is empty; gettext shows the msgid_plural for it`,
            part.line +
              Math.max(
                part.lines.findIndex((line) => line.startsWith('msgstr')),
                0,
              ),
          );
        }
        value = icuPluralMessage('count', sortCategories(branches), INTERPOLATION);
      } else if (translated) {
        value = icuPluralMessage(
          'count',
          [
            ['one', entry.msgstr[0]!],
            ['other', entry.msgstr[1] ?? entry.msgstr[0]!],
          ],
          INTERPOLATION,
        );
      } else if (template) value = templateValue(entry);
    } else if (translated) value = entry.msgstr[0];
    else if (template) value = templateValue(entry);
    if (value === undefined) continue;
    define(document, part.key, value);
    const description = [entry.comments?.translator, entry.comments?.extracted]
      .filter((text): text is string => !!text && text.trim() !== '')
      .join('\n');
    if (description) define(document, `@${part.key}`, { description });
  }
  return document;
}

/** What a template (or the source's catalog) reads an entry it has not translated as: its msgid. */
export function templateValue(entry: PoEntry): string {
  return entry.msgid_plural === undefined
    ? entry.msgid
    : icuPluralMessage(
        'count',
        [
          ['one', entry.msgid],
          ['other', entry.msgid_plural],
        ],
        INTERPOLATION,
      );
}

function sortCategories(branches: [PluralCategory, string][]): [PluralCategory, string][] {
  const order: PluralCategory[] = ['zero', 'one', 'two', 'few', 'many', 'other'];
  return branches.sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
}

function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
