import type { CliError } from './errors.js';
import type { Io } from './io.js';

/**
 * Output for people on stdout, or exactly one JSON document on stdout with `--json`; notes and
 * errors always on stderr, so a script reading stdout gets only the document.
 */
export function createOutput(io: Io, json: boolean) {
  return {
    json,
    /** A line for people; nothing with --json. */
    line(text = '') {
      if (!json) io.stdout.write(text + '\n');
    },
    /** The JSON document, with --json. */
    document(value: unknown) {
      if (json) io.stdout.write(JSON.stringify(value, null, 2) + '\n');
    },
    /** Progress and warnings, on stderr. */
    note(text: string) {
      io.stderr.write(text + '\n');
    },
    error(error: CliError) {
      io.stderr.write(`error: ${error.code}: ${error.message}\n`);
      if (json)
        io.stdout.write(JSON.stringify({ error: { code: error.code, message: error.message } }) + '\n');
    },
  };
}

export type Output = ReturnType<typeof createOutput>;
