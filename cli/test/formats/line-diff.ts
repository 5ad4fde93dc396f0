import { expect } from 'vitest';

/**
 * The line diff of two texts, as `git diff` shows it: the lines of the old text that are gone
 * and the lines of the new one that are added, by their index, from a longest common
 * subsequence. For the small files of the formats' property tests.
 */
export function lineDiff(before: readonly string[], after: readonly string[]) {
  const rows = before.length;
  const columns = after.length;
  // common[i][j]: the longest common subsequence of before[i..] and after[j..].
  const common = Array.from({ length: rows + 1 }, () => new Array<number>(columns + 1).fill(0));
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = columns - 1; j >= 0; j--) {
      common[i]![j] =
        before[i] === after[j]
          ? common[i + 1]![j + 1]! + 1
          : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const removed: number[] = [];
  const added: number[] = [];
  let i = 0;
  let j = 0;
  while (i < rows || j < columns) {
    if (i < rows && j < columns && before[i] === after[j]) {
      i++;
      j++;
    } else if (j < columns && (i === rows || common[i]![j + 1]! >= common[i + 1]![j]!)) added.push(j++);
    else removed.push(i++);
  }
  return { removed, added };
}

/** A text's lines without their line breaks (a final break ends the last line, adding none). */
export function linesOf(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * A final line break stays; a file without one gets none, unless its last line (the one without
 * a break) is gone.
 */
export function expectFinalNewline(before: string, after: string, eol: string): void {
  if (before.endsWith(eol) || before === '') expect(after.endsWith(eol)).toBe(true);
  else if (after.endsWith(eol)) expect(after.endsWith(`${before.split(eol).at(-1)}${eol}`)).toBe(false);
}
