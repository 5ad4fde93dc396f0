import {
  SOURCE_LOCALE_PATTERN,
  canonicalLocale,
  parseTargetLocale,
  sourceLocaleProblem,
} from '@tolk/contracts';
import { usageError } from './errors.js';

/**
 * What the CLI reads where the API wants BCP 47: apps often spell locales with an underscore
 * (gettext and Java `pt_BR`, Flutter `zh_Hant`), which the CLI takes to mean `pt-BR`.
 */
function asBcp47(code: string): string {
  return code.replaceAll('_', '-');
}

/** A target locale of the command line or tolk.json in canonical form, or why it is not one. */
export function readTargetLocale(code: string): ReturnType<typeof parseTargetLocale> {
  return parseTargetLocale(asBcp47(code));
}

/** A source locale (the spec's pattern) in canonical form, or undefined when it is not one. */
export function readSourceLocale(code: string): string | undefined {
  const bcp47 = asBcp47(code);
  return SOURCE_LOCALE_PATTERN.test(bcp47) ? canonicalLocale(bcp47) : undefined;
}

/** `de, fr,pt_br,zh-hant` → `['de', 'fr', 'pt-BR', 'zh-Hant']`; a code that is not one is exit 2. */
export function parseLocaleList(value: string | readonly string[], option: string): string[] {
  const items = (typeof value === 'string' ? [value] : value).flatMap((item) =>
    item.split(',').map((part) => part.trim()),
  );
  const codes: string[] = [];
  for (const item of items) {
    if (item === '') continue;
    const parsed = readTargetLocale(item);
    if (!parsed.ok) throw usageError(`${option}: ${parsed.problem}`);
    if (!codes.includes(parsed.locale)) codes.push(parsed.locale);
  }
  return codes;
}

/** The source locale of `--source`: the spec's pattern, which target locales are not held to. */
export function parseSourceLocale(value: string, option: string): string {
  const code = readSourceLocale(value.trim());
  if (code === undefined) throw usageError(`${option}: ${sourceLocaleProblem(value)}`);
  return code;
}
