import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Workspace libraries, services and the gateway resolve to their TypeScript sources, everywhere
// tests run: each export of a package (`@tolk/locale-file`, `@tolk/locale-file/plural-groups`,
// `@tolk/token-service`) to its `tolk-source` file.
const root = fileURLToPath(new URL('.', import.meta.url));
const packageDirs = [
  ...['libs', 'services'].flatMap((folder) =>
    readdirSync(path.join(root, folder)).map((name) => path.join(root, folder, name)),
  ),
  path.join(root, 'gateway'),
];
const alias = packageDirs.flatMap((dir) => {
  const { name, exports = {} } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    name: string;
    exports?: Record<string, { 'tolk-source': string }>;
  };
  // `.` is the package itself, `./plural-groups` a subpath; names and subpaths are kebab-case.
  return Object.entries(exports).map(([subpath, conditions]) => ({
    find: new RegExp(`^${name}${subpath.slice(1)}$`),
    replacement: path.join(dir, conditions['tolk-source']),
  }));
});

const INCLUDE = ['**/test/**/*.test.ts'];
const EXCLUDE = ['**/node_modules/**', '**/dist/**'];

/**
 * Files that bound wall-clock time (another user's p99 beside slow uploads and beside big values,
 * parsing 200,000 keys, an unknown account's password check against a real one): they run after
 * the rest, one at a time, with nothing else of the run beside them.
 */
const TIMED = [
  'test/hostile/slow-uploads.test.ts',
  'test/hostile/big-values.test.ts',
  'test/hostile/heavy-inputs.test.ts',
  'test/hostile/glossary-callers.test.ts',
  'libs/locale-file/test/source-performance.test.ts',
  'cli/test/formats/xliff-large-files.test.ts',
  'cli/test/merge-driver/large-files.test.ts',
  'services/identity-service/test/passwords.test.ts',
  'services/project-service/test/glossary-event-loop.test.ts',
  'services/locale-service/test/locale-browse-load.test.ts',
  'test/e2e/key-rules-through-gateway.test.ts',
  'services/locale-service/test/key-rules-slices.test.ts',
  // Measures the heap: alone, in a process of its own.
  'libs/contracts/test/key-rule-heap.test.ts',
];

/**
 * The real apps' first day, the heaviest files of the run: each keeps a core busy for a minute or
 * two (the String Catalog as long as the nine other apps). They run after the timed files, the two
 * side by side with nothing else beside them: as one file, the apps kept one core busy for twice
 * as long while the other waited.
 */
const CORPUS = ['cli/test/real-apps-adoption.test.ts', 'cli/test/real-apps-adoption-string-catalog.test.ts'];

/**
 * Files that test code in memory (parsers, formats, configuration, the CLI's file layouts) and
 * hold no state of their own between files: they share one module graph per worker
 * (isolate: false) instead of importing everything afresh for each file.
 */
const IN_MEMORY = [
  'libs/locale-file/test/**/*.test.ts',
  'libs/contracts/test/**/*.test.ts',
  'libs/time-slices/test/**/*.test.ts',
  '**/test/config.test.ts',
  'cli/test/formats/**/*.test.ts',
  'cli/test/init/**/*.test.ts',
  'cli/test/merge-driver/merge-locale-file.test.ts',
];

/**
 * The longest files of the parallel part of the run (the summary's slowest, a few minutes each on
 * CI), started before any other: without a previous run's durations, vitest starts the largest
 * files first, and one of these started late would run on alone at the end.
 */
const LONGEST = [
  'test/browser/dashboard.test.ts',
  'test/ci/github-action.test.ts',
  'test/ci/gitlab-template.test.ts',
  'test/hostile/fuzz.test.ts',
];

/**
 * vitest's order (groups, then duration or size), with the LONGEST files first in their group
 * right after the in-memory files: those are CPU-bound with timed properties, and run first, on
 * cores nothing else of the run holds yet.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      if (file.project.name === 'in-memory') return -1;
      const at = LONGEST.indexOf(path.relative(root, file.moduleId));
      return at === -1 ? LONGEST.length : at;
    };
    const group = (file: TestSpecification) => file.project.config.sequence.groupOrder;
    return sorted
      .map((file, at) => ({ file, at }))
      .sort((a, b) => group(a.file) - group(b.file) || rank(a.file) - rank(b.file) || a.at - b.at)
      .map(({ file }) => file);
  }
}

// Most files spend their time waiting on Postgres, RabbitMQ, Chromium and timers rather than on a
// core: one file more than there are cores keeps the cores busy (vitest's default is one less).
const WORKERS = availableParallelism() + 1;

// Each project's own settings; the run's infrastructure (globalSetup) is found once, at the root,
// and provided to both.
const shared = { testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  resolve: { alias },
  test: {
    globalSetup: ['./vitest.global-setup.ts'],
    reporters: ['default', './vitest.summary-reporter.ts'],
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        resolve: { alias },
        test: {
          ...shared,
          name: 'tolk',
          include: INCLUDE,
          exclude: [...EXCLUDE, ...TIMED, ...IN_MEMORY, ...CORPUS],
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          name: 'in-memory',
          include: IN_MEMORY,
          exclude: [...EXCLUDE, ...TIMED],
          isolate: false,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          name: 'timed',
          include: TIMED,
          exclude: EXCLUDE,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          name: 'corpus',
          include: CORPUS,
          exclude: EXCLUDE,
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
