import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppError, PayloadTooLargeError } from '@tolk/errors';

/**
 * How long a request body may take: `timeoutMs` in all, and, once `graceMs` have passed, at least
 * `minBytesPerSecond` on average since its first byte was awaited (0: no minimum). The average,
 * not the gap between two reads, so a client cannot hold a body open by sending a byte now and then.
 */
export type BodyTiming = { timeoutMs: number; minBytesPerSecond: number; graceMs: number };

/**
 * After a refused body, how long and how much of the rest is read and thrown away before the
 * connection is cut (nginx's lingering close): enough for a fast client to finish writing an
 * oversized upload and read the answer, too little to be worth abusing.
 */
const LINGER_MS = 5000;
const LINGER_MAX_BYTES = 32 * 1024 * 1024;

function tooLarge(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`Request body exceeds the limit of ${maxBytes} bytes`);
}

/** Whether the request carries a body at all; one without is never read nor held. */
export function hasBody(req: IncomingMessage): boolean {
  const declared = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (declared !== undefined && declared !== '0');
}

/**
 * Answers a refused body (413, 408) with `Connection: close`, and closes that connection gently.
 * Node destroys the socket right after such an answer; bytes the client is still sending then
 * reach a closed socket, the kernel answers them with a reset, and a client busy writing its body
 * (node's fetch, about one upload in eight) fails with EPIPE before it reads the answer. Instead
 * the rest of the body is read and dropped, and the connection is half-closed after the answer
 * and closed once the client is done — or after LINGER_MS or LINGER_MAX_BYTES, whichever first.
 */
export function closeAfterRefusal(req: IncomingMessage, res: ServerResponse): void {
  if (res.headersSent) return;
  res.setHeader('Connection', 'close');
  if (req.complete) return; // nothing left unread: node's own close is clean
  const socket = req.socket as Socket & { destroySoon?: () => void };
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_MAX_BYTES) socket.destroy();
  });
  req.resume();
  // What node's server calls once the answer of a `Connection: close` response is written.
  socket.destroySoon = () => {
    socket.end();
    const cut = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(cut));
  };
}

/**
 * Reads a body into memory, up to `maxBytes` (413 as soon as it is declared or grows larger) and
 * within `timing` (408 once too slow): a body is complete before anything reaches a service.
 */
export function readBodyUpTo(req: IncomingMessage, maxBytes: number, timing: BodyTiming): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.reject(tooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const startedAt = performance.now();

    /**
     * Runs when the deadline or the minimum rate could have been missed: the rate is checked
     * again only when the bytes received so far would no longer meet it, one timer per body.
     */
    const check = () => {
      const elapsed = performance.now() - startedAt;
      if (elapsed >= timing.timeoutMs) {
        fail(new AppError('REQUEST_TIMEOUT', `Request body was not complete within ${timing.timeoutMs} ms`));
        return;
      }
      const rate = timing.minBytesPerSecond;
      if (rate > 0 && elapsed >= timing.graceMs && received < (rate * elapsed) / 1000) {
        fail(
          new AppError(
            'REQUEST_TIMEOUT',
            `Request body arrived slower than ${rate} bytes per second (${received} bytes in ${Math.round(elapsed)} ms)`,
          ),
        );
        return;
      }
      const rateDueAt = rate > 0 ? Math.max(timing.graceMs, (received * 1000) / rate) : Infinity;
      timer = setTimeout(check, Math.ceil(Math.min(timing.timeoutMs, rateDueAt) - elapsed));
    };
    let timer = setTimeout(
      check,
      timing.minBytesPerSecond > 0 ? Math.min(timing.graceMs, timing.timeoutMs) : timing.timeoutMs,
    );

    const cleanup = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
    };
    const fail = (error: AppError) => {
      cleanup();
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        fail(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    };
    const onAbort = () => {
      cleanup();
      reject(new AppError('VALIDATION_ERROR', 'Request body was aborted by the client'));
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onAbort);
    req.once('close', onAbort);
  });
}
