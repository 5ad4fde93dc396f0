import net from 'node:net';

export type RawAnswer = {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection after its answer. */
  closed: boolean;
};

/**
 * Writes `bytes` to a fresh connection exactly as given (what no HTTP client would send: broken
 * framing, headers past the limit, no Host) and reads the first answer the server sends back.
 * Resolves when the server closes the connection, or `idleMs` after the answer is complete
 * (`closed: false`: the server kept the connection open).
 */
export function sendRawHttp(url: string, bytes: string | Buffer, idleMs = 1000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let idle: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = (split < 0 ? text : text.slice(0, split)).split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
      if (!status) {
        reject(
          new Error(`no HTTP answer (${closed ? 'closed' : 'open'}): ${JSON.stringify(text.slice(0, 200))}`),
        );
        return;
      }
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({ status, headers, body: split < 0 ? '' : text.slice(split + 4), closed });
    };
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      clearTimeout(idle);
      idle = setTimeout(() => settle(false), idleMs);
    });
    socket.on('close', () => settle(true));
    // A reset after the answer still leaves the answer to read.
    socket.on('error', () => undefined);
  });
}
