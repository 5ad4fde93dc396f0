import amqp from 'amqplib';
import { consumerQueueNames } from '@tolk/bus';

/**
 * Deletes the durable queues a test declared, with their dead-letter and retry queues; missing
 * ones are fine.
 */
export async function deleteQueues(amqpUrl: string, queues: readonly string[]): Promise<void> {
  const connection = await amqp.connect(amqpUrl);
  const channel = await connection.createChannel();
  for (const name of queues.flatMap((queue) => consumerQueueNames(queue))) {
    await channel.deleteQueue(name).catch(() => undefined);
  }
  await connection.close().catch(() => undefined);
}
