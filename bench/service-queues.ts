/**
 * The RabbitMQ queues a benchmark's services consume under fixed names (shared with `npm start`
 * on the same broker): checked before a run, and removed after it when the run created them.
 */
import amqp from 'amqplib';
import { consumerQueueNames } from '@tolk/bus';

/**
 * The service queues as found before the run. A queue someone consumes (a running `npm start`)
 * would split the events with the bench's services: refused. Returns the queues that did not
 * exist, which the bench removes again at the end.
 */
export async function inspectServiceQueues(
  amqpUrl: string,
  queues: readonly string[],
  warn: (line: string) => void,
): Promise<string[]> {
  const connection = await amqp.connect(amqpUrl);
  const absent: string[] = [];
  try {
    for (const queue of queues) {
      // A missing queue closes the channel it was checked on: one channel per check.
      const channel = await connection.createChannel();
      channel.on('error', () => undefined);
      const found = await channel.checkQueue(queue).catch(() => undefined);
      if (!found) {
        absent.push(queue);
        continue;
      }
      await channel.close();
      if (found.consumerCount > 0) {
        throw new Error(
          `queue ${queue} on ${new URL(amqpUrl).host} already has ${found.consumerCount} consumer(s) — is ` +
            '`npm start` running? Its services would take part of the events this bench depends on; stop it first.',
        );
      }
      if (found.messageCount > 0) {
        warn(
          `note: queue ${queue} holds ${found.messageCount} message(s) of an earlier run; the bench consumes them`,
        );
      }
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
  return absent;
}

/**
 * Removes queues (and their dead-letter queues) that nobody consumes any more. The broker may
 * still count the consumers of a process that has just exited: an "in use" refusal is retried.
 */
export async function deleteQueues(
  amqpUrl: string,
  queues: readonly string[],
  log: (line: string) => void,
): Promise<void> {
  if (queues.length === 0) return;
  const connection = await amqp.connect(amqpUrl);
  try {
    for (const queue of queues.flatMap((q) => consumerQueueNames(q))) {
      for (let attempt = 1; ; attempt++) {
        const channel = await connection.createChannel();
        channel.on('error', () => undefined);
        const failure = await channel.deleteQueue(queue, { ifUnused: true }).then(
          () => undefined,
          (err: unknown) => err as Error,
        );
        if (!failure) {
          await channel.close();
          break;
        }
        if (attempt === 30) {
          log(`could not remove queue ${queue}: ${failure.message}`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
}
