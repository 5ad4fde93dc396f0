/**
 * How long a test waits for what an event or a write after the answer brings about, and how often
 * it looks: for `vi.waitFor(check, settled)` and `expect.poll(probe, settled)`.
 */
export const settled = { timeout: 10_000, interval: 20 } as const;
