import xterm from '@xterm/headless';

/**
 * A real terminal emulator (xterm.js, headless) of a given size, behind a stream-like sink: what
 * the CLI writes to it is interpreted as a terminal would (wrapping, cursor moves, erasing), and
 * `screen()` reads back what a person would see. `\n` moves to the start of the next row, as the
 * tty's line discipline makes it do for a program's output.
 */
export function createTerminal({ columns, rows = 24 }: { columns: number; rows?: number }) {
  const terminal = new xterm.Terminal({ cols: columns, rows, convertEol: true, allowProposedApi: true });
  let written: Promise<void> = Promise.resolve();
  return {
    sink: {
      columns,
      rows,
      isTTY: true,
      write(chunk: string) {
        written = new Promise((resolve) => terminal.write(chunk, resolve));
        return true;
      },
    },
    /** The screen's lines once everything written is drawn, a wrapped line joined back into one. */
    async screen(): Promise<string[]> {
      await written;
      const buffer = terminal.buffer.active;
      const lines: string[] = [];
      for (let y = 0; y < buffer.length; y++) {
        const line = buffer.getLine(y);
        if (!line) continue;
        // Untrimmed: a space at the end of a row that wraps is part of the line.
        const text = line.translateToString(false);
        if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
        else lines.push(text);
      }
      const trimmed = lines.map((line) => line.trimEnd());
      while (trimmed.at(-1) === '') trimmed.pop();
      return trimmed;
    },
    dispose: () => terminal.dispose(),
  };
}

/**
 * What a screen says, in reading order, without its whitespace: log-update breaks a long line
 * onto the next rows at the terminal's width (between words where it can, else mid-word), so
 * rows are compared as one stream of characters; where each line starts is for the caller.
 */
export function flow(lines: readonly string[]): string {
  return lines.join('').replace(/\s+/g, '');
}
