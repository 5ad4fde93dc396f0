// The `tolk` process: real stdin/stdout, Ctrl-C aborts whatever is under way.
import open from 'open';
import type { Io } from './io.js';
import { run } from './run.js';

// The AI SDK logs its own warnings (e.g. a provider without JSON-schema output) to the console;
// tolk reports what matters itself. TOLK_DEBUG shows them.
if (!process.env['TOLK_DEBUG']) {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
}

const controller = new AbortController();
let interrupted = false;
process.on('SIGINT', () => {
  // A second Ctrl-C stops at once.
  if (interrupted) process.exit(130);
  interrupted = true;
  controller.abort();
});

// `tolk status | head`: a closed pipe ends the output, not the process with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const io: Io = {
  env: process.env,
  cwd: process.cwd(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  isTTY: process.stdout.isTTY === true,
  stdinIsTTY: process.stdin.isTTY === true,
  // `open` resolves once the opener (xdg-open, open, start) has spawned, rejects when it cannot.
  openBrowser: async (url) => void (await open(url)),
  signal: controller.signal,
};

process.exitCode = await run(process.argv.slice(2), io);
// Nothing should keep the process alive after the answer (a readline on stdin, a keep-alive socket).
process.stdin.unref?.();
