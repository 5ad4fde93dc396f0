import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the summary names: where the run's time goes. */
const SLOWEST = 15;

/**
 * Closes the run with the slowest files and one plain line, `tests: N passed, N failed, N skipped`,
 * for CI to read; a file that failed outside its tests (a hook, an import) counts as one failure.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      let failedTests = 0;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') failedTests += 1;
        else counts.skipped += 1;
      }
      // A file that failed outside its tests (a hook, an import) is one failure more: its tests
      // were skipped, and would otherwise hide it.
      counts.failed += failedTests + (testModule.state() === 'failed' && failedTests === 0 ? 1 : 0);
    }
    const slowest = testModules
      .map((testModule) => ({ file: testModule.relativeModuleId, ms: testModule.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST);
    process.stdout.write(
      `\nslowest files:\n${slowest.map(({ file, ms }) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`).join('\n')}\n`,
    );
    process.stdout.write(
      `\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
