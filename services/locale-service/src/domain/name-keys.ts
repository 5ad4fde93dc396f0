/** How many keys an error message names before it says how many more there are. */
export const NAMED_KEYS = 10;

/** Keys for an error message: the first few quoted, then how many more. */
export function nameKeys(keys: readonly string[]): string {
  const named = keys.slice(0, NAMED_KEYS).map((key) => JSON.stringify(key));
  const more = keys.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}
