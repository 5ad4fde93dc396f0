import { rebuildTranslation } from '@tolk/locale-file';
import { bcp47Spelling } from './bcp47-spelling.js';
import { keepsUnwritten, type FormatName, type LocaleFormat, type WriteInput } from './format.js';
import { readJsonFile, readJsonSource, withFileNames, writeJsonFile } from './json-document.js';
import { editJsonFile } from './json-edit.js';

/**
 * A JSON format whose targets are the source's nesting and key order with the target's values:
 * annotations (`@key`) are the source's context and stay out of targets, as in the server's
 * downloads; `@@locale`, where the source has it, names the target. i18next plural groups are
 * written with the target's forms (`input.target`), as the project's setting has them. A target
 * file that exists is edited in place (json-edit.ts, DESIGN §16); a new one, or one that is not a
 * JSON object, is written in the source's layout. Written from another version of the same file
 * (a merge, `WriteInput.sameFile`), annotations are kept, and a member new to the file comes as
 * it stands there.
 */
export function plainJsonFormat(name: Extract<FormatName, 'json' | 'i18next'>): LocaleFormat {
  return {
    name,
    extensions: ['.json'],
    ...bcp47Spelling('-'),
    read: ({ bytes, path, findings }) => readJsonFile(bytes, path, findings ? { findings } : {}).document,
    write(input: WriteInput) {
      const { source, locale, valueOf, target, existing } = input;
      const { parsed, style } = readJsonSource(source);
      // Another version of the same file (a merge) keeps the annotations a source file has.
      const document = rebuildTranslation(parsed, valueOf, {
        locale,
        target,
        ...(input.sameFile ? { annotations: true } : {}),
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
}

/** Nested or flat JSON, one file per locale (`locales/pt-BR.json`). */
export const jsonFormat = plainJsonFormat('json');
