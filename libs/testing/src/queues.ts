import amqp from 'amqplib';

/** Deletes the durable queues a test declared, and their dead-letter queues; missing ones are fine. */
export async function deleteQueues(amqpUrl: string, queues: readonly string[]): Promise<void> {
  const connection = await amqp.connect(amqpUrl);
  const channel = await connection.createChannel();
  for (const queue of queues) {
    await channel.deleteQueue(queue).catch(() => undefined);
    await channel.deleteQueue(`${queue}.dlq`).catch(() => undefined);
  }
  await connection.close().catch(() => undefined);
}
