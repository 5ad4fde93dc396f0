/**
 * A proxy that forwards every request to `target` unchanged and sends its answer back unchanged.
 * `before` runs when a request arrives and before it is forwarded: tests make something happen
 * between two requests of the CLI with it (another client's upload). On `port` (default: any free
 * one) of 127.0.0.1.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startForwardingProxy(
  target: string,
  options: { port?: number; before?: (request: { method: string; path: string }) => Promise<void> } = {},
) {
  const before = options.before ?? (async () => {});
  const server = createServer((req, res) => {
    // The body waits in the paused request until it is piped on.
    before({ method: req.method ?? 'GET', path: new URL(req.url ?? '/', target).pathname }).then(
      () => {
        const forward = request(
          new URL(req.url ?? '/', target),
          { method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.on('error', () => res.writeHead(502).end());
        req.pipe(forward);
      },
      (error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`proxy: ${String(error)}`);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
