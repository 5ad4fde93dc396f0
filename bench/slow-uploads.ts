/**
 * Slow uploads as a hostile client sends them (issue 13, item 1), for bench:slow-clients and
 * test/hostile/slow-uploads.test.ts: raw sockets that send a PUT's headers, declaring a
 * Content-Length, and then one byte of its body every `everyMs`, never finishing it. Loopback only.
 */
import net from 'node:net';

export type SlowUploads = {
  /** How each connection ended so far: the status the gateway answered, or `closed` without one. */
  outcomes: Map<string, number>;
  /** Connections open right now. */
  open(): number;
  /** Closes every connection and opens no more. */
  stop(): void;
};

/**
 * Opens `count` slow uploads to `url` (http://127.0.0.1:port/path) and resolves once all are
 * connected. With `reopen`, a connection the gateway ends is replaced `everyMs` later, as a
 * persistent attacker does, until `stop`.
 */
export async function startSlowUploads(options: {
  url: string;
  headers: Record<string, string>;
  count: number;
  everyMs: number;
  declaredBytes?: number;
  reopen?: boolean;
}): Promise<SlowUploads> {
  const target = new URL(options.url);
  if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost') {
    throw new Error('slow uploads are sent to loopback only');
  }
  const head =
    `PUT ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\n` +
    Object.entries({ ...options.headers, 'content-length': String(options.declaredBytes ?? 100_000) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    '\r\n{';
  const sockets = new Set<net.Socket>();
  const outcomes = new Map<string, number>();
  let stopped = false;
  const note = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);

  const connect = () =>
    new Promise<void>((resolve) => {
      // Trickled to only once its request has begun: a byte before it would be a malformed request.
      const socket = net.connect(Number(target.port), target.hostname, () => {
        if (stopped) {
          socket.destroy();
          return;
        }
        socket.write(head);
        sockets.add(socket);
        resolve();
      });
      let status: string | undefined;
      socket.on('data', (chunk: Buffer) => {
        status ??= /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1];
      });
      socket.on('error', () => {});
      socket.once('close', () => {
        sockets.delete(socket);
        resolve();
        if (stopped) return;
        note(status ?? 'closed');
        // After a pause, or 590 refused clients would reconnect as fast as the loop turns.
        if (options.reopen) setTimeout(() => void (stopped || connect()), options.everyMs);
      });
    });

  // One timer for all of them: a byte of whitespace (still valid JSON) to each open socket.
  const trickle = setInterval(() => {
    for (const socket of sockets) if (socket.writable) socket.write(' ');
  }, options.everyMs);
  for (let opened = 0; opened < options.count; opened += 50) {
    await Promise.all(Array.from({ length: Math.min(50, options.count - opened) }, connect));
  }
  return {
    outcomes,
    open: () => sockets.size,
    stop() {
      stopped = true;
      clearInterval(trickle);
      for (const socket of sockets) socket.destroy();
    },
  };
}
