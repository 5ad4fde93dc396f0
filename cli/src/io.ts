import type { Readable } from 'node:stream';

/** Where output goes: enough of a stream to write to, and a terminal's size when it is one. */
export type Sink = { write(chunk: string): unknown; columns?: number; rows?: number; isTTY?: boolean };

/**
 * Everything the CLI reads from and writes to its surroundings, so that a test can run it
 * in-process with an environment, a directory and captured output of its own.
 */
export type Io = {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdin: Readable;
  stdout: Sink;
  stderr: Sink;
  /** stdout is a terminal: progress bars redraw in place. */
  isTTY: boolean;
  /** stdin is a terminal: questions may be asked. */
  stdinIsTTY: boolean;
  /** Opens a URL in the user's browser; rejects when it cannot. */
  openBrowser: (url: string) => Promise<void>;
  /** Aborted on Ctrl-C: every wait and request stops. */
  signal: AbortSignal;
};
