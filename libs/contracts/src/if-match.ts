/**
 * `If-Match` of a resource whose entity tag is a number (a source version, the revision of a
 * locale's translations): the numbers the client expects to be current, or `any` for `*`. Read
 * from the header by a service's routes (`parseIfMatch` of @tolk/http), checked by its domain.
 */
export type IfMatch = number[] | 'any';

/**
 * Whether the resource at `current` meets the condition: one of the numbers, or for `*` that the
 * resource exists (`exists`: it has a representation a GET would answer). No condition: it does.
 */
export function ifMatchHolds(expected: IfMatch | undefined, current: number, exists: boolean): boolean {
  if (expected === undefined) return true;
  return expected === 'any' ? exists : expected.includes(current);
}
