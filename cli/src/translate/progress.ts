import { createLogUpdate } from 'log-update';
import type { Sink } from '../io.js';

type LocaleProgress = { locale: string; total: number; done: number; failed: number; state: string };

const BAR_WIDTH = 24;

/**
 * One progress line per locale. On a terminal the lines are redrawn in place by log-update, which
 * wraps them to the terminal's width (`sink.columns`) and erases as many rows as the last frame
 * took, so a long line that wrapped on a narrow terminal is redrawn whole, never left half
 * behind. Elsewhere (CI logs, pipes) each event is one plain line, so logs stay readable.
 */
export function createProgress(
  sink: Sink,
  options: { tty: boolean; locales: { locale: string; total: number }[] },
) {
  const rows: LocaleProgress[] = options.locales.map(({ locale, total }) => ({
    locale,
    total,
    done: 0,
    failed: 0,
    state: total === 0 ? 'nothing to translate' : 'waiting',
  }));
  const width = Math.max(0, ...rows.map((row) => row.locale.length));
  // log-update reads only write, columns and rows of its stream: a Sink with them will do. The
  // cursor stays visible: hiding it would go through process.stderr, whatever the sink. 8.x at
  // least: 7.x redraws only the rows that changed and loses the lines below one whose wrapped
  // height changes (the narrow-terminal test of progress.test.ts fails on it).
  const frame = options.tty
    ? createLogUpdate(sink as NodeJS.WritableStream, { showCursor: true })
    : undefined;

  function render(row: LocaleProgress): string {
    const ratio = row.total === 0 ? 1 : Math.min(1, (row.done + row.failed) / row.total);
    const filled = Math.round(ratio * BAR_WIDTH);
    const bar = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
    const failed = row.failed > 0 ? `, ${row.failed} failed` : '';
    return `${row.locale.padEnd(width)}  ${bar}  ${row.done}/${row.total} keys${failed}  ${row.state}`;
  }

  function redraw() {
    frame?.(rows.map(render).join('\n'));
  }

  function update(locale: string, change: Partial<Omit<LocaleProgress, 'locale' | 'total'>>, line?: string) {
    const row = rows.find((r) => r.locale === locale);
    if (!row) return;
    Object.assign(row, change);
    if (frame) redraw();
    else if (line) sink.write(`${locale}: ${line}\n`);
  }

  if (frame && rows.length > 0) redraw();
  return {
    batchDone(locale: string, keys: number, batch: number, batches: number) {
      const row = rows.find((r) => r.locale === locale)!;
      update(
        locale,
        { done: row.done + keys, state: 'translating' },
        `batch ${batch}/${batches} translated (${keys} keys)`,
      );
    },
    batchFailed(locale: string, keys: number, reason: string) {
      const row = rows.find((r) => r.locale === locale)!;
      update(locale, { failed: row.failed + keys, state: 'translating' }, `${keys} keys failed: ${reason}`);
    },
    /** A batch goes to the model without examples: the server's similarity search took too long. */
    examplesSkipped(locale: string, batch: number, batches: number) {
      const line = `batch ${batch}/${batches}: no examples from translation memory (its similarity search took too long)`;
      update(locale, { state: `translating; ${line}` }, line);
    },
    retrying(locale: string, reason: string) {
      update(locale, { state: `retrying: ${reason}` }, `retrying: ${reason}`);
    },
    /** Keys done other than by translating (an import): the bar filled by them, `state` said. */
    keysDone(locale: string, keys: number, state: string) {
      const row = rows.find((r) => r.locale === locale)!;
      update(locale, { done: row.done + keys, state }, state);
    },
    state(locale: string, state: string) {
      update(locale, { state }, state);
    },
    /** The last frame stays as it is; what is written next goes below it. */
    done() {
      frame?.done();
    },
  };
}

export type Progress = ReturnType<typeof createProgress>;
