/**
 * Where a new entry goes in a target edited in place (DESIGN §16): after the nearest entry before
 * it in the source that the target has, else before the nearest one after it.
 */

/**
 * For each item, what `found` gives for the nearest item before it and after it that it gives
 * something for: in two passes, however many items (a search from each item would take the
 * square of a 50,000-key file's keys).
 */
export function nearest<T, A>(items: readonly T[], found: (item: T) => A | undefined) {
  const out = items.map(() => ({ before: undefined as A | undefined, after: undefined as A | undefined }));
  let last: A | undefined;
  items.forEach((item, index) => {
    out[index]!.before = last;
    last = found(item) ?? last;
  });
  last = undefined;
  for (let index = items.length - 1; index >= 0; index--) {
    out[index]!.after = last;
    last = found(items[index]!) ?? last;
  }
  return out;
}
