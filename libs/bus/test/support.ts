import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { promisify } from 'node:util';
import amqp from 'amqplib';
import { consumerQueueNames } from '@tolk/bus';
import type { EventEnvelope } from '@tolk/contracts';
import { createLogger, type Logger } from '@tolk/logger';

export function randomSuffix(): string {
  return randomBytes(5).toString('hex');
}

/** A unique event type per test: the exchange is shared with every other test file. */
export function uniqueEventType(): string {
  return `Test.${randomSuffix()}`;
}

export function uniqueQueue(label: string): string {
  return `test.bus.${label}.${randomSuffix()}`;
}

export function envelope(type: string, data: Record<string, unknown> = {}): EventEnvelope {
  return { id: randomUUID(), type, occurredAt: Date.now(), producer: 'bus-test', data };
}

/** A logger whose lines the test can read. */
export function memoryLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger(
    { name: 'bus-test', level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

/** A plain AMQP connection for what the bus does not do: raw publishes, queue inspection, cleanup. */
export async function openAdmin(url: string) {
  const connection = await amqp.connect(url);
  const channel = await connection.createConfirmChannel();
  const queues = new Set<string>();
  return {
    channel,
    /** Deleted with its dead-letter and retry queues at close. */
    track(queue: string, options: { retryDelaysMs?: readonly number[] } = {}) {
      for (const name of consumerQueueNames(queue, options)) queues.add(name);
    },
    async messageCount(queue: string): Promise<number> {
      return (await channel.checkQueue(queue)).messageCount;
    },
    async close() {
      for (const queue of queues) await channel.deleteQueue(queue).catch(() => undefined);
      await connection.close();
    },
  };
}

/**
 * A TCP proxy in front of the broker, so a test can cut the bus off (as a network failure or a
 * broker restart would) without touching the RabbitMQ server other tests share.
 */
export async function startTcpProxy(targetUrl: string) {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port || 5672);
  const sockets = new Set<net.Socket>();
  const clients = new Map<net.Socket, net.Socket>();
  let server: net.Server | undefined;
  let port = 0;

  async function start(): Promise<void> {
    const next = net.createServer((client) => {
      const upstream = net.connect({ host: target.hostname, port: targetPort });
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      clients.set(client, upstream);
      client.on('close', () => clients.delete(client));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    port = (next.address() as net.AddressInfo).port;
    server = next;
  }

  function dropConnections(): void {
    for (const socket of sockets) socket.destroy();
  }

  await start();
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    dropConnections,
    /** Stops accepting and cuts every connection: the broker is unreachable. */
    async stop() {
      const current = server;
      server = undefined;
      dropConnections();
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    /** Connections stay open but what the client sends never reaches the broker. */
    freeze() {
      for (const [client, upstream] of clients) client.unpipe(upstream);
    },
    /** Accepts again, on the same port. */
    start,
  };
}

/**
 * Closes one client connection from the broker side with rabbitmqctl, found by the connection
 * name the client announced. False when rabbitmqctl cannot be used or does not see it (e.g. the
 * broker runs in a container), so the caller can fall back to cutting the socket.
 */
export async function closeConnectionOnBroker(connectionName: string): Promise<boolean> {
  const run = promisify(execFile);
  try {
    const { stdout } = await run(
      'rabbitmqctl',
      ['list_connections', 'pid', 'client_properties', '--quiet', '--silent'],
      {
        timeout: 15_000,
      },
    );
    const line = stdout.split('\n').find((l) => l.includes(`{"connection_name","${connectionName}"}`));
    const pid = line?.split('\t')[0];
    if (!pid) return false;
    await run('rabbitmqctl', ['close_connection', pid, 'bus test: simulated connection drop'], {
      timeout: 15_000,
    });
    return true;
  } catch {
    return false;
  }
}
