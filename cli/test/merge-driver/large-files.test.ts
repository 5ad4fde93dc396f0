/**
 * The merge driver on large locale files: a merge by key reads the three versions, writes one
 * side into the other twice (once to check that the format carries that side's changes) and
 * reads the result back, so it costs a few readings of the files — never a search per key (a
 * 50,000-key JSON file took four minutes when each new member looked its origin up by name).
 * Timed (vitest.config.ts TIMED): measured against reading the same files, in the same run.
 */
import { describe, expect, it } from 'vitest';
import { formatNamed } from '../../src/formats/index.js';
import { mergeLocaleFile } from '../../src/merge-driver/merge-locale-file.js';
import { localeFileSubject } from '../../src/merge-driver/subject.js';
import { LAYOUTS, type Entry } from './layouts.js';

const KEYS = 20_000;
/** Keys each side adds, spread through the file. */
const ADDED = 1_000;
/** The bound, in readings of the three versions (as each is read for the merge); about 2 to 5 measured. */
const MAX_RATIO = 8;

const base: Entry[] = Array.from({ length: KEYS }, (_, index) => ({
  key: `Key${index}`,
  value: `Wert ${index}`,
  comment: `Comment ${index}`,
}));

function withAdded(tag: string): Entry[] {
  const every = KEYS / ADDED;
  return base.flatMap((entry, index) =>
    index % every === 0 ? [entry, { key: `${tag}${index}`, value: `${tag} ${index}` }] : [entry],
  );
}

describe('merging large locale files', () => {
  // The formats whose files take another version's entries as they stand there (WriteInput.sameFile).
  const layouts = [
    'nested JSON (source)',
    'properties (source)',
    'PO (target)',
    'Apple .strings (target)',
    'Xcode String Catalog (every locale)',
    'XLIFF 1.2 (source)',
  ];
  for (const name of layouts) {
    it(`when each side adds ${ADDED} keys to a ${name} file of ${KEYS}, then the merge takes a few readings of it`, () => {
      const layout = LAYOUTS[name]!;
      const format = formatNamed(layout.format)!;
      const subject = localeFileSubject({
        format,
        formatOptions: layout.options ?? {},
        sourceLocale: 'en',
        targetLocales: ['de'],
        locale: layout.locale,
        path: layout.path,
      });
      const files = {
        base: Buffer.from(layout.file(base)),
        ours: Buffer.from(layout.file(withAdded('Ours'))),
        theirs: Buffer.from(layout.file(withAdded('Theirs'))),
      };
      const reading = performance.now();
      for (const bytes of Object.values(files)) {
        for (const { locale, source } of subject.views) {
          format.read({
            bytes,
            locale,
            path: layout.path,
            options: layout.options ?? {},
            ...(source ? { source } : {}),
          });
        }
      }
      const read = performance.now() - reading;

      const merging = performance.now();
      const result = mergeLocaleFile(subject, files, () => {
        throw new Error('no conflict expected');
      });
      const merged = performance.now() - merging;

      expect(result.status).toBe('merged');
      expect(merged / read, `${merged.toFixed(0)} ms merging, ${read.toFixed(0)} ms reading`).toBeLessThan(
        MAX_RATIO,
      );
    }, 300_000);
  }
});
