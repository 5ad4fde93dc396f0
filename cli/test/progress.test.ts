/**
 * The translate progress display, drawn on a real terminal emulator: what a person sees at the
 * end, on a narrow terminal where the problem lines wrap, and in a log that is not a terminal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProgress } from '../src/translate/progress.js';
import { createTerminal, flow } from './support/terminal.js';

const FULL = '█'.repeat(24);
const EMPTY = '░'.repeat(24);
const HALF = '█'.repeat(12) + '░'.repeat(12);
const PROBLEM = 'attempt 1 rejected for 2 keys, e.g. checkout.summary.total, checkout.summary.tax';

describe('translate progress', () => {
  const terminals: Array<ReturnType<typeof createTerminal>> = [];
  afterEach(() => terminals.splice(0).forEach((terminal) => terminal.dispose()));
  function terminal(columns: number) {
    const created = createTerminal({ columns });
    terminals.push(created);
    return created;
  }

  /** Two locales: de has a problem line that wraps on a narrow terminal, then both finish. */
  function drive(progress: ReturnType<typeof createProgress>) {
    progress.retrying('de', PROBLEM);
    progress.batchDone('fr', 2, 1, 2);
    progress.batchDone('de', 2, 1, 2);
    progress.retrying('de', PROBLEM);
    progress.batchDone('fr', 2, 2, 2);
    progress.state('fr', 'uploaded, up to date');
    progress.batchDone('de', 2, 2, 2);
    progress.state('de', 'uploaded, up to date');
    progress.done();
  }

  it('when a problem line wraps on a narrow terminal, then the final screen shows each locale once and nothing left over', async () => {
    const tty = terminal(40);
    const progress = createProgress(tty.sink, {
      tty: true,
      locales: [
        { locale: 'de', total: 4 },
        { locale: 'fr', total: 4 },
      ],
    });
    expect(flow(await tty.screen())).toBe(
      flow([`de  ${EMPTY}  0/4 keys  waiting`, `fr  ${EMPTY}  0/4 keys  waiting`]),
    );

    progress.retrying('de', PROBLEM);
    expect(flow(await tty.screen())).toBe(
      flow([`de  ${EMPTY}  0/4 keys  retrying: ${PROBLEM}`, `fr  ${EMPTY}  0/4 keys  waiting`]),
    );

    drive(progress);
    tty.sink.write('Translated 8 keys into 2 locales.\n');
    const screen = await tty.screen();
    expect(flow(screen)).toBe(
      flow([
        `de  ${FULL}  4/4 keys  uploaded, up to date`,
        `fr  ${FULL}  4/4 keys  uploaded, up to date`,
        'Translated 8 keys into 2 locales.',
      ]),
    );
    // Each locale's line starts a row of its own, once.
    expect(screen.filter((row) => /^(de|fr) /.test(row))).toEqual([
      `de  ${FULL}  4/4 keys`,
      `fr  ${FULL}  4/4 keys`,
    ]);
  });

  it('when the terminal is wide, then the lines are redrawn in place too', async () => {
    const tty = terminal(200);
    const progress = createProgress(tty.sink, {
      tty: true,
      locales: [
        { locale: 'de', total: 4 },
        { locale: 'pt-BR', total: 0 },
      ],
    });
    progress.batchDone('de', 2, 1, 2);
    expect(await tty.screen()).toEqual([
      `de     ${HALF}  2/4 keys  translating`,
      `pt-BR  ${FULL}  0/0 keys  nothing to translate`,
    ]);
    progress.batchFailed('de', 2, 'rejected after 3 attempts');
    progress.done();
    expect(await tty.screen()).toEqual([
      `de     ${FULL}  2/4 keys, 2 failed  translating`,
      `pt-BR  ${FULL}  0/0 keys  nothing to translate`,
    ]);
  });

  it('when the output is not a terminal, then each event is one plain line without escape sequences', () => {
    let log = '';
    const progress = createProgress(
      { write: (chunk: string) => (log += chunk) },
      {
        tty: false,
        locales: [
          { locale: 'de', total: 4 },
          { locale: 'fr', total: 4 },
        ],
      },
    );
    drive(progress);
    expect(log).toBe(
      [
        `de: retrying: ${PROBLEM}`,
        'fr: batch 1/2 translated (2 keys)',
        'de: batch 1/2 translated (2 keys)',
        `de: retrying: ${PROBLEM}`,
        'fr: batch 2/2 translated (2 keys)',
        'fr: uploaded, up to date',
        'de: batch 2/2 translated (2 keys)',
        'de: uploaded, up to date',
        '',
      ].join('\n'),
    );
  });
});
