import { INTERNAL_CALLER_HEADER, TOKEN_USAGE_PATH } from '@tolk/contracts';
import type { Logger } from '@tolk/logger';

/**
 * The uses of project API tokens, reported to token-service in batches (`lastUsedAt`, DESIGN §7):
 * a token's first use here within `flushMs`, then at most once per `intervalMs` from this
 * instance — never a database write per request. A report that fails is tried again at the next
 * flush.
 */
export function createTokenUsageReporter(deps: {
  tokenServiceUrl: string;
  signInternalCaller: () => Promise<string>;
  timeoutMs: number;
  flushMs: number;
  intervalMs: number;
  logger: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  /** Token id → when its use was last reported (or queued). */
  const reported = new Map<string, number>();
  /** Token id → the latest use not reported yet. */
  const pending = new Map<string, number>();
  let flushing: Promise<void> | undefined;

  async function flush(): Promise<void> {
    if (pending.size === 0) return;
    const uses = [...pending].map(([tokenId, at]) => ({ tokenId, at }));
    pending.clear();
    try {
      const response = await fetch(`${deps.tokenServiceUrl}${TOKEN_USAGE_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [INTERNAL_CALLER_HEADER]: await deps.signInternalCaller(),
        },
        body: JSON.stringify({ uses }),
        signal: AbortSignal.timeout(deps.timeoutMs),
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`usage report answered ${response.status}`);
    } catch (err) {
      deps.logger.warn({ err, tokens: uses.length }, 'reporting token use failed; trying again');
      for (const use of uses) if (!pending.has(use.tokenId)) pending.set(use.tokenId, use.at);
    }
    // What is older than the interval may be reported again; the map stays bounded.
    const horizon = now() - deps.intervalMs;
    for (const [tokenId, at] of reported) if (at <= horizon) reported.delete(tokenId);
  }

  const timer = setInterval(() => {
    flushing ??= flush().finally(() => {
      flushing = undefined;
    });
  }, deps.flushMs);
  timer.unref();

  return {
    noteUse(tokenId: string): void {
      const at = now();
      const last = reported.get(tokenId);
      if (last !== undefined && last > at - deps.intervalMs) return;
      reported.set(tokenId, at);
      pending.set(tokenId, at);
    },

    /** Reports what is pending, then stops. */
    async close(): Promise<void> {
      clearInterval(timer);
      await flushing;
      await flush();
    },
  };
}

export type TokenUsageReporter = ReturnType<typeof createTokenUsageReporter>;
