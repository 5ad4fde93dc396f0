import net from 'node:net';

export type FixedRate = {
  offeredRate: number;
  achievedRate: number;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
};

/**
 * A lean HTTP/1.1 load generator for fixed-rate runs: a pool of kept-alive sockets writing
 * pre-built request bytes and reading just enough of each answer (status and Content-Length) to
 * know where it ends. It costs a fraction of the CPU of `http.request`, so on a small machine the
 * measurement leaves the servers the cores they are measured on.
 */
export async function measureFixedRateRaw(options: {
  url: string;
  headers: Record<string, string>;
  rate: number;
  seconds: number;
  connections?: number;
}): Promise<FixedRate> {
  const target = new URL(options.url);
  const head =
    `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
    Object.entries(options.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    '\r\n';
  const requestBytes = Buffer.from(head, 'latin1');
  const total = options.rate * options.seconds;
  const latencies = new Float64Array(total);
  let completed = 0;
  let errors = 0;
  const queue: number[] = []; // due times of requests waiting for a free connection

  type Conn = { socket: net.Socket; busySince: number | undefined; buffer: Buffer };
  // First in, first out: every connection is used every few milliseconds, so none sits idle long
  // enough for the server's keep-alive timeout to close it under a request.
  const idle: Conn[] = [];
  let lost = 0; // requests whose connection closed before the answer came
  let running = true;

  const dispatch = (conn: Conn) => {
    const due = queue.shift();
    if (due === undefined) {
      conn.busySince = undefined;
      idle.push(conn);
      return;
    }
    conn.busySince = due;
    conn.socket.write(requestBytes);
  };

  const onData = (conn: Conn, chunk: Buffer) => {
    conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, chunk]) : chunk;
    for (;;) {
      const end = conn.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers = conn.buffer.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headers)?.[1] ?? 0);
      if (conn.buffer.length < end + 4 + length) return;
      const status = Number(headers.slice(9, 12));
      conn.buffer = conn.buffer.subarray(end + 4 + length);
      if (status !== 200) errors += 1;
      latencies[completed++] = performance.now() - conn.busySince!;
      dispatch(conn);
    }
  };

  const open = (): Promise<Conn> =>
    new Promise<Conn>((resolve, reject) => {
      const socket = net.connect({ host: target.hostname, port: Number(target.port) }, () => {
        socket.setNoDelay(true);
        resolve(conn);
      });
      const conn: Conn = { socket, busySince: undefined, buffer: Buffer.alloc(0) };
      socket.on('data', (chunk) => onData(conn, chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const waiting = idle.indexOf(conn);
        if (waiting >= 0) idle.splice(waiting, 1);
        if (conn.busySince !== undefined) lost += 1;
        conn.busySince = undefined;
        if (running) void open().then(dispatch, () => undefined);
      });
    });

  const connections = await Promise.all(Array.from({ length: options.connections ?? 64 }, open));
  idle.push(...connections);

  const started = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - started) / 1000) * options.rate) + 1);
      for (; sent < due; sent += 1) {
        queue.push(started + (sent / options.rate) * 1000);
        const conn = idle.shift();
        if (conn) dispatch(conn);
      }
      if (completed + lost >= total || (sent >= total && now - started > options.seconds * 1000 + 10_000)) {
        resolve();
        return;
      }
      setTimeout(tick, 1);
    };
    tick();
  });
  running = false;
  errors += total - completed; // lost, or never answered within the grace period
  const elapsed = (performance.now() - started) / 1000;
  for (const conn of [...connections, ...idle]) conn.socket.destroy();
  const sorted = latencies.subarray(0, completed).sort();
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    offeredRate: options.rate,
    achievedRate: (total - errors) / elapsed,
    errors,
    p50: pick(0.5),
    p90: pick(0.9),
    p99: pick(0.99),
    p999: pick(0.999),
    max: sorted[sorted.length - 1] ?? NaN,
  };
}
