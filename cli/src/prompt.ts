import { createInterface } from 'node:readline';
import type { Io } from './io.js';

/**
 * Questions on stdout, answers read line by line from stdin (buffered, so answers typed or piped
 * ahead are not lost). Only used when stdin is a terminal.
 */
export function createPrompter(io: Io) {
  let lines: AsyncIterator<string> | undefined;
  let close: (() => void) | undefined;
  return {
    async ask(question: string, defaultAnswer?: string): Promise<string> {
      if (!lines) {
        const rl = createInterface({ input: io.stdin, terminal: false });
        lines = rl[Symbol.asyncIterator]();
        close = () => rl.close();
      }
      io.stdout.write(defaultAnswer ? `${question} (${defaultAnswer}): ` : `${question}: `);
      const next = await lines.next();
      const answer = next.done ? '' : next.value.trim();
      return answer || defaultAnswer || '';
    },
    close() {
      close?.();
    },
  };
}
