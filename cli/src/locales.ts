import { LOCALE_PATTERN, canonicalLocale } from '@tolk/contracts';
import { usageError } from './errors.js';

/** `de, fr,pt-br` → `['de', 'fr', 'pt-BR']`; a code that is not one is exit 2. */
export function parseLocaleList(value: string | readonly string[], option: string): string[] {
  const items = (typeof value === 'string' ? [value] : value).flatMap((item) =>
    item.split(',').map((part) => part.trim()),
  );
  const codes: string[] = [];
  for (const item of items) {
    if (item === '') continue;
    if (!LOCALE_PATTERN.test(item)) {
      throw usageError(`${option}: "${item}" is not a locale code (expected something like de, fr or pt-BR)`);
    }
    const code = canonicalLocale(item);
    if (!codes.includes(code)) codes.push(code);
  }
  return codes;
}

export function parseLocale(value: string, option: string): string {
  const [code] = parseLocaleList(value, option);
  if (!code || value.includes(',')) throw usageError(`${option}: expected one locale code, got "${value}"`);
  return code;
}
