import { rebuildTranslation } from '@tolk/locale-file';
import { bcp47Spelling } from './bcp47-spelling.js';
import type { FormatName, LocaleFormat, WriteInput } from './format.js';
import { readJsonFile, readJsonSource, writeJsonFile } from './json-document.js';

/**
 * A JSON format whose targets are the source's nesting and key order with the target's values:
 * annotations (`@key`) are the source's context and stay out of targets, as in the server's
 * downloads; `@@locale`, where the source has it, names the target. i18next plural groups are
 * written with the target's forms (`input.target`), as the project's setting has them.
 */
export function plainJsonFormat(name: Extract<FormatName, 'json' | 'i18next'>): LocaleFormat {
  return {
    name,
    extensions: ['.json'],
    ...bcp47Spelling('-'),
    read: ({ bytes, path, findings }) => readJsonFile(bytes, path, findings ? { findings } : {}).document,
    write({ source, locale, valueOf, target }: WriteInput) {
      const { parsed, style } = readJsonSource(source);
      return writeJsonFile(rebuildTranslation(parsed, valueOf, { locale, target }), style);
    },
  };
}

/** Nested or flat JSON, one file per locale (`locales/pt-BR.json`). */
export const jsonFormat = plainJsonFormat('json');
