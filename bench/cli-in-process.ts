/** The real `tolk` CLI run in the bench's own process, as the benches that measure it run it. */
import { Readable } from 'node:stream';
import type { Io } from '../cli/src/io.js';
import { run } from '../cli/src/run.js';

/** `tolk <args>` in-process in `cwd`, its output captured; not a terminal, no browser. */
export async function tolkInProcess(args: string[], cwd: string, environment: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    env: environment,
    cwd,
    stdin: Readable.from([]),
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    isTTY: false,
    stdinIsTTY: false,
    openBrowser: () => Promise.reject(new Error('no browser in the bench')),
    signal: new AbortController().signal,
  };
  const code = await run(args, io);
  return { code, stdout, stderr };
}
