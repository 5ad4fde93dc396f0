import type { Reporter, TestModule } from 'vitest/node';

/**
 * Closes the run with one plain line, `tests: N passed, N failed, N skipped`, for CI to read; a
 * file that failed outside its tests (a hook, an import) counts as one failure.
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
    process.stdout.write(
      `\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
