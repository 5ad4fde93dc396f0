import { describe, expect, it } from 'vitest';
import { settled } from '@tolk/testing';
import { currentRequestId, runWithRequestId } from '@tolk/logger';
import { createInProcessBus } from '@tolk/bus';
import { envelope, memoryLogger, uniqueEventType } from './support.js';

/** The embedded mode's bus: no server, so these run in every environment. */
describe('createInProcessBus', () => {
  function open() {
    const { logger, lines } = memoryLogger();
    return { bus: createInProcessBus({ logger }), lines };
  }

  it('when a handler fails, then publish resolves without waiting for the retry and later events are handled meanwhile', async () => {
    const { bus } = open();
    const type = uniqueEventType();
    const handled: string[] = [];
    await bus.subscribe({
      queue: 'flaky',
      eventTypes: [type],
      retryDelaysMs: [300],
      handler: async (event, meta) => {
        handled.push(`${String(event.data['name'])}:${meta.attempt}`);
        if (event.data['name'] === 'flaky' && meta.attempt === 1) throw new Error('not yet');
      },
    });

    await bus.publish(envelope(type, { name: 'flaky' }));
    await bus.publish(envelope(type, { name: 'good' }));
    expect(handled).toEqual(['flaky:1', 'good:1']);

    await expect.poll(() => handled, { ...settled, message: 'the retry' }).toHaveLength(3);
    expect(handled).toEqual(['flaky:1', 'good:1', 'flaky:2']);
    expect(bus.deadLetters('flaky')).toEqual([]);
    await bus.close();
  });

  it('when a handler always fails, then it is tried maxAttempts times, each after its delay, and kept as a dead letter', async () => {
    const { bus, lines } = open();
    const type = uniqueEventType();
    const tries: Array<{ attempt: number; at: number }> = [];
    await bus.subscribe({
      queue: 'poison',
      eventTypes: [type],
      maxAttempts: 3,
      retryDelaysMs: [100, 200],
      handler: async (_event, meta) => {
        tries.push({ attempt: meta.attempt, at: performance.now() });
        throw new Error('cannot handle this one');
      },
    });

    const poison = envelope(type);
    await bus.publish(poison);
    await expect
      .poll(() => bus.deadLetters('poison'), { ...settled, message: 'the dead letter' })
      .toHaveLength(1);

    expect(tries.map((t) => t.attempt)).toEqual([1, 2, 3]);
    // Timers fire no earlier than asked (a millisecond of rounding aside).
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(99);
    expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(199);
    expect(bus.deadLetters('poison')).toEqual([poison]);
    const messages = lines.map((line) => line['msg']);
    expect(messages.filter((m) => m === 'event handler failed; retrying')).toHaveLength(2);
    expect(
      messages.filter((m) => m === 'event handler failed for the last time; kept as a dead letter'),
    ).toHaveLength(1);
    await bus.close();
  });

  it('when a retry runs, then it carries the request id of the publish', async () => {
    const { bus } = open();
    const type = uniqueEventType();
    const requestIds: Array<string | undefined> = [];
    await bus.subscribe({
      queue: 'request-id',
      eventTypes: [type],
      retryDelaysMs: [10],
      handler: async (_event, meta) => {
        requestIds.push(currentRequestId());
        if (meta.attempt === 1) throw new Error('not yet');
      },
    });
    await runWithRequestId('req-retry-1', () => bus.publish(envelope(type)));
    await expect.poll(() => requestIds, { ...settled, message: 'the retry' }).toHaveLength(2);
    expect(requestIds).toEqual(['req-retry-1', 'req-retry-1']);
    await bus.close();
  });

  it('when the bus closes while a retry waits, then the retry runs at once and close waits for it', async () => {
    const { bus } = open();
    const type = uniqueEventType();
    const tries: number[] = [];
    await bus.subscribe({
      queue: 'closing',
      eventTypes: [type],
      retryDelaysMs: [60_000],
      handler: async (_event, meta) => {
        tries.push(meta.attempt);
        if (meta.attempt === 1) throw new Error('not yet');
      },
    });
    await bus.publish(envelope(type));
    expect(tries).toEqual([1]);

    const started = performance.now();
    await bus.close();
    expect(tries).toEqual([1, 2]);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(bus.deadLetters('closing')).toEqual([]);
  });

  it('when retry delays are not whole positive milliseconds, then subscribe refuses them', async () => {
    const { bus } = open();
    for (const retryDelaysMs of [[], [0], [1.5], [-1]]) {
      await expect(
        bus.subscribe({
          queue: `bad-${retryDelaysMs.join()}`,
          eventTypes: ['X'],
          retryDelaysMs,
          handler: async () => {},
        }),
      ).rejects.toThrow(/retryDelaysMs/);
    }
    await bus.close();
  });
});
