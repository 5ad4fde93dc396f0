/**
 * The code's shape (issue 28, item 1): no function in `src/` of the services, the libraries, the
 * gateway and the CLI over 120 lines of its own (the lines of the functions nested in it are
 * theirs), no file of a service's `domain/` over 400 lines, no CLI source file over 600. What is
 * still over a limit waits for its split on the list below, at its size today as a ceiling: it
 * may shrink, never grow, and leaves the list once it is within the limit.
 */
import { describe, expect, it } from 'vitest';
import { functionSizes, lineCount, measureSources, type MeasuredFile } from './support/code-shape.js';

const MAX_OWN_LINES = 120;
const MAX_DOMAIN_FILE_LINES = 400;
const MAX_CLI_FILE_LINES = 600;

/**
 * Functions waiting for their split, `file:name` → their own lines today (the ceiling). Each is
 * being taken apart in its own change; remove its entry there.
 */
const WAITING_FUNCTIONS: Record<string, number> = {};

/** Files waiting for their split, path → their lines today (the ceiling). */
const WAITING_FILES: Record<string, number> = {};

const measured = measureSources(MAX_OWN_LINES);

/** The limit of a file's lines, or undefined for a file no limit is about. */
function fileLimit(file: string): number | undefined {
  if (/^services\/[^/]+\/src\/domain\//.test(file)) return MAX_DOMAIN_FILE_LINES;
  if (file.startsWith('cli/src/')) return MAX_CLI_FILE_LINES;
  return undefined;
}

type Waiting = { functions: Record<string, number>; files: Record<string, number> };
const WAITING: Waiting = { functions: WAITING_FUNCTIONS, files: WAITING_FILES };

/** What is over its limit (or, waiting, over its ceiling), each as `where: size (limit)`. */
function overLimits(files: readonly MeasuredFile[], waiting = WAITING) {
  const functions = files.flatMap(({ functions }) =>
    functions.flatMap(({ file, line, name, ownLines }) => {
      const limit = waiting.functions[`${file}:${name}`] ?? MAX_OWN_LINES;
      return ownLines > limit ? [`${file}:${line} ${name}: ${ownLines} own lines (at most ${limit})`] : [];
    }),
  );
  const filesOver = files.flatMap(({ file, lines }) => {
    const limit = waiting.files[file] ?? fileLimit(file);
    return limit !== undefined && lines > limit ? [`${file}: ${lines} lines (at most ${limit})`] : [];
  });
  return { functions, files: filesOver };
}

describe('the shape of the code', () => {
  it('when a function holds nested ones, then their lines are theirs and the rest are its own', () => {
    const text = [
      'export function outer() {', // 1
      '  const inner = () => {', // 2
      '    return 1;', // 3
      '  };', // 4
      '  return [1, 2].map(function (n) {', // 5
      '    return n + inner();', // 6
      '  });', // 7
      '}', // 8
      'const object = { method() { return 2; } };', // 9
      '',
    ].join('\n');
    expect(lineCount(text)).toBe(9);
    expect(functionSizes('x.ts', text)).toEqual([
      { file: 'x.ts', line: 1, name: 'outer', ownLines: 2 },
      { file: 'x.ts', line: 2, name: 'inner', ownLines: 3 },
      { file: 'x.ts', line: 5, name: '(anon)', ownLines: 3 },
      { file: 'x.ts', line: 9, name: 'method', ownLines: 1 },
    ]);
  });

  it(`when every function of src/ is measured, then none has over ${MAX_OWN_LINES} lines of its own, and none waiting for its split has grown`, () => {
    expect(measured.length).toBeGreaterThan(100);
    expect(overLimits(measured).functions).toEqual([]);
  });

  it(`when the files are measured, then no domain/ file is over ${MAX_DOMAIN_FILE_LINES} lines and no CLI source file over ${MAX_CLI_FILE_LINES}, and none waiting for its split has grown`, () => {
    expect(overLimits(measured).files).toEqual([]);
  });

  it('when a function or a file grows past its limit or its ceiling, then it is named with its size', () => {
    const waiting: Waiting = { functions: { 'cli/src/big.ts:big': 300 }, files: { 'cli/src/big.ts': 900 } };
    const grown: MeasuredFile[] = [
      {
        file: 'cli/src/big.ts',
        lines: 901,
        functions: [
          { file: 'cli/src/big.ts', line: 9, name: 'big', ownLines: 301 },
          { file: 'cli/src/big.ts', line: 400, name: 'other', ownLines: 120 },
        ],
      },
      {
        file: 'services/project-service/src/domain/projects.ts',
        lines: 401,
        functions: [
          { file: 'services/project-service/src/domain/projects.ts', line: 3, name: 'x', ownLines: 121 },
        ],
      },
      { file: 'services/project-service/src/data-access/big-repository.ts', lines: 5000, functions: [] },
      { file: 'cli/src/fine.ts', lines: 600, functions: [] },
    ];
    expect(overLimits(grown, waiting)).toEqual({
      functions: [
        'cli/src/big.ts:9 big: 301 own lines (at most 300)',
        'services/project-service/src/domain/projects.ts:3 x: 121 own lines (at most 120)',
      ],
      files: [
        'cli/src/big.ts: 901 lines (at most 900)',
        'services/project-service/src/domain/projects.ts: 401 lines (at most 400)',
      ],
    });
  });

  it('when a function or file on the waiting list is within its limit again, then it leaves the list', () => {
    // The largest of a file's functions of one name: a nested helper may share its name.
    const byName = new Map<string, number>();
    for (const fn of measured.flatMap(({ functions }) => functions)) {
      const key = `${fn.file}:${fn.name}`;
      byName.set(key, Math.max(byName.get(key) ?? 0, fn.ownLines));
    }
    const linesOf = new Map(measured.map(({ file, lines }) => [file, lines]));
    const splitFunctions = Object.keys(WAITING_FUNCTIONS).filter(
      (key) => (byName.get(key) ?? 0) <= MAX_OWN_LINES,
    );
    const splitFiles = Object.keys(WAITING_FILES).filter(
      (file) => (linesOf.get(file) ?? 0) <= (fileLimit(file) ?? Infinity),
    );
    expect({ splitFunctions, splitFiles }).toEqual({ splitFunctions: [], splitFiles: [] });
  });
});
