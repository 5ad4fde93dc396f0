import { performance } from 'node:perf_hooks';
import { parseSourceDocument, targetKeys } from '@tolk/locale-file';
import { describe, expect, it } from 'vitest';
import { xliffFormat } from '../../src/formats/xliff.js';

// Not a benchmark: writing a target parses the source and the file on disk, so it costs a few
// reads of the file; a step repeated over the whole file for each unit (such a write of this
// file took minutes) breaks the ratio, on a slow or busy machine too.
const RATIO = 5;
const UNITS = 20_000;

function timed(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

/** An XLIFF 1.2 source of `units` units, each with an inline code, as Angular extracts them. */
function angularSource(units: number): string {
  const body = Array.from(
    { length: units },
    (_, index) => `      <trans-unit id="unit.${index}" datatype="html">
        <source>Item ${index} of <x id="INTERPOLATION" equiv-text="{{ total }}"/></source>
        <context-group purpose="location"><context context-type="sourcefile">app.html</context></context-group>
      </trans-unit>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" datatype="plaintext" original="ng2.template">
    <body>
${body}
    </body>
  </file>
</xliff>
`;
}

describe('an XLIFF file of many units', () => {
  it('when a target of 20,000 units is written over the one on disk, then it costs a few reads of the file and every unit gets its target', () => {
    const source = Buffer.from(angularSource(UNITS), 'utf8');
    const document = xliffFormat.read({
      bytes: source,
      locale: 'en',
      path: 'messages.xlf',
      options: {},
      findings: [],
    });
    const values = new Map(
      Object.entries(document)
        .filter(([key]) => !key.startsWith('@'))
        .map(([key, value]) => [key, `[de] ${value as string}`]),
    );
    expect(values.size).toBe(UNITS);
    const write = (existing?: Buffer) =>
      xliffFormat.write({
        source,
        sourceLocale: 'en',
        locale: 'de',
        valueOf: (key) => values.get(key),
        target: targetKeys(parseSourceDocument(document), 'de'),
        existing,
        options: {},
      });

    const first = write();
    let again = first;
    const writing = timed(() => {
      again = write(first);
    });
    const reading = timed(() =>
      xliffFormat.read({ bytes: first, locale: 'de', path: 'messages.de.xlf', options: {}, findings: [] }),
    );

    expect(writing).toBeLessThan(RATIO * reading);
    expect(again.equals(first)).toBe(true);
    const text = again.toString('utf8');
    expect(text.match(/<target state="translated">/g)).toHaveLength(UNITS);
    expect(text).toContain(
      '<target state="translated">[de] Item 19999 of <x id="INTERPOLATION" equiv-text="{{ total }}"/></target>',
    );
  });
});
