/**
 * Reading a candidate file for `tolk init`: only to tell whether it is a locale file of its
 * format and how many messages it has. A file is left out only when it is no file of its format
 * (it does not parse); what its entries say is for `tolk push` and `tolk check` to report.
 */
import { findPluralGroups } from '@tolk/locale-file';
import type { FileFinding, FormatOptions, LocaleFormat } from '../formats/index.js';

export type DetectionRead = { document: Record<string, unknown>; messages: number } | { error: Error };

export type DetectionReadInput = {
  format: LocaleFormat;
  bytes: Buffer;
  locale: string;
  path: string;
  options?: FormatOptions;
  /**
   * The file's plain structure, when the format refuses it for its entries rather than its
   * syntax (JSON keys with dots where i18next's `keySeparator` is off): undefined when it does
   * not parse either.
   */
  plainly?: (bytes: Buffer) => Record<string, unknown> | undefined;
};

/** The file as its format reads it, with its message count; or why it is no file of its format. */
export function readForDetection(input: DetectionReadInput): DetectionRead {
  const { format, bytes, locale, path, options = {}, plainly } = input;
  let document: Record<string, unknown> | undefined;
  const findings: FileFinding[] = [];
  try {
    document = format.read({ bytes, locale, path, options, findings });
  } catch (error) {
    document = plainly?.(bytes);
    if (document === undefined) return { error: error as Error };
  }
  const keys = flatKeys(document);
  // A file whose every entry its format read past holds no text: no locale file of it.
  if (keys.length === 0 && findings.length > 0) return { error: new Error(findings[0]!.message) };
  const groups = findPluralGroups(keys);
  const forms = groups.reduce((sum, group) => sum + group.forms.length, 0);
  return { document, messages: keys.length - forms + groups.length };
}

/** The keys of a document, annotations (`@key`) left out. */
export function flatKeys(document: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(document).flatMap(([name, value]) => {
    if (name.startsWith('@')) return [];
    const key = prefix + name;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? flatKeys(value as Record<string, unknown>, `${key}.`)
      : [key];
  });
}

/**
 * A JSON object of text (objects whose leaves are strings; annotations aside), or undefined: what
 * a JSON locale file is before its keys are judged.
 */
export function plainJsonObject(bytes: Buffer): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  return isTextTree(value) ? (value as Record<string, unknown>) : undefined;
}

function isTextTree(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([name, child]) => name.startsWith('@') || typeof child === 'string' || isTextTree(child),
  );
}
