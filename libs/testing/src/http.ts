import http from 'node:http';
import { expect } from 'vitest';
import type { AddressInfo } from 'node:net';

/** Listens on an ephemeral port of the loopback interface. */
export async function listen(
  handler: http.RequestListener,
): Promise<{ url: string; port: number; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** fetch with a JSON body, returning status, headers and the parsed body. */
export async function request(
  url: string,
  init: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.rawBody !== undefined) body = init.rawBody;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Exactly `{"error":{"code","message"}}`, with the request id in its header. */
export function expectError(
  response: Awaited<ReturnType<typeof request>>,
  status: number,
  code: string,
): void {
  expect({ status: response.status, body: response.body }).toStrictEqual({
    status,
    body: { error: { code, message: expect.any(String) } },
  });
  expect(response.body.error.message.length).toBeGreaterThan(0);
  expect(response.headers.get('x-request-id')).toMatch(/\S+/);
}

/**
 * Per delivery of an event, whether the consumer applied it (true) or skipped it as a duplicate
 * (false), read from a service's captured log lines ('event consumed' with `applied`).
 */
export function consumedFlags(logLines: readonly string[], eventId: string): boolean[] {
  return logLines
    .map((line) => JSON.parse(line) as { msg?: string; eventId?: string; applied?: boolean })
    .filter((entry) => entry.msg === 'event consumed' && entry.eventId === eventId)
    .map((entry) => entry.applied === true);
}
