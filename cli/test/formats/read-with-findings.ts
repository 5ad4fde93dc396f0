// What the format tests share: a file read as the CLI reads it, with the findings the format reports.
import type { FileFinding, FormatOptions, LocaleFormat } from '../../src/formats/index.js';

export function readWithFindings(
  format: LocaleFormat,
  text: string | Buffer,
  input: { locale: string; path: string; options?: FormatOptions },
): { document: Record<string, unknown>; findings: FileFinding[] } {
  const findings: FileFinding[] = [];
  const document = format.read({
    bytes: typeof text === 'string' ? Buffer.from(text) : text,
    locale: input.locale,
    path: input.path,
    options: input.options ?? {},
    findings,
  });
  return { document, findings };
}
