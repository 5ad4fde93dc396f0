import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { inject } from 'vitest';
import { createInProcessBus, createRabbitBus, type Bus } from '@tolk/bus';
import { EVENTS_EXCHANGE, eventEnvelopeSchema, type EventEnvelope } from '@tolk/contracts';
import type { Logger } from '@tolk/logger';
import { EMBEDDED } from './infrastructure.js';
import { deleteQueues } from './queues.js';

/** An event as it arrived on a queue of the test's own. */
export type ObservedEvent = {
  envelope: EventEnvelope;
  /** RabbitMQ's message properties; none on the in-process bus. */
  message?: { messageId: unknown; appId: unknown; persistent: boolean; routingKey: string };
};

export type TestBroker = {
  /** AMQP_URL for the services' configurations (they take their bus from `bus()`). */
  url: string;
  /** A RabbitMQ server rather than the in-process bus. */
  real: boolean;
  /** A bus for one producer: its own RabbitMQ connection, or a handle on the one in-process bus. */
  bus(options: { logger: Logger; producer: string }): Bus;
  /** Hands every event of these types, published by anyone from now on, to `onEvent`. */
  observe(eventTypes: readonly string[], onEvent: (event: ObservedEvent) => void): Promise<void>;
  /** RabbitMQ only: each message reaching the dead-letter queue of `queue` (declared by subscribe). */
  onDeadLetter(queue: string, onMessage: (message: amqp.ConsumeMessage) => void): Promise<void>;
  /** RabbitMQ only: puts a message with any body straight on a queue, confirmed. */
  sendToQueue(queue: string, content: string, messageId: string): Promise<void>;
  /** Deletes the durable queues a test declared, and their dead-letter queues. */
  deleteQueues(queues: readonly string[]): Promise<void>;
  close(): Promise<void>;
};

/**
 * The event bus of one test harness, from the run's infrastructure: RabbitMQ at `amqpUrl`, or —
 * where the run has none (DESIGN §8) — one in-process bus that every service of the harness
 * shares, as the embedded mode's services do. `logger` logs the in-process bus's retries.
 */
export async function openTestBroker(options: { amqpUrl?: string; logger: Logger }): Promise<TestBroker> {
  const amqpUrl = options.amqpUrl ?? inject('infrastructure').amqpUrl;
  if (amqpUrl === EMBEDDED) return inProcessBroker(options.logger);

  const connection = await amqp.connect(amqpUrl);
  const channel = await connection.createConfirmChannel();
  // A test may stop the broker: the observers then just stop observing.
  connection.on('error', () => undefined);
  channel.on('error', () => undefined);
  await channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
  return {
    url: amqpUrl,
    real: true,
    bus: ({ logger, producer }) => createRabbitBus({ url: amqpUrl, logger, producer }),
    async observe(eventTypes, onEvent) {
      // Other test files publish to the same exchange: each observer filters for its own data.
      const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
      for (const type of eventTypes) await channel.bindQueue(queue, EVENTS_EXCHANGE, type);
      await channel.consume(queue, (message) => {
        if (!message) return;
        onEvent({
          envelope: eventEnvelopeSchema.parse(JSON.parse(message.content.toString('utf8'))),
          message: {
            messageId: message.properties.messageId as unknown,
            appId: message.properties.appId as unknown,
            persistent: message.properties.deliveryMode === 2,
            routingKey: message.fields.routingKey,
          },
        });
        channel.ack(message);
      });
    },
    async onDeadLetter(queue, onMessage) {
      await channel.consume(`${queue}.dlq`, (message) => {
        if (!message) return;
        onMessage(message);
        channel.ack(message);
      });
    },
    async sendToQueue(queue, content, messageId) {
      channel.sendToQueue(queue, Buffer.from(content), { persistent: true, messageId });
      await channel.waitForConfirms();
    },
    deleteQueues: (queues) => deleteQueues(amqpUrl, queues),
    async close() {
      await connection.close().catch(() => undefined);
    },
  };
}

function inProcessBroker(logger: Logger): TestBroker {
  const shared = createInProcessBus({ logger });
  const needsRabbitMQ = (what: string) =>
    new Error(`${what} needs RabbitMQ; this run has the in-process bus (skip the test without it)`);
  return {
    url: 'amqp://embedded',
    real: false,
    // Closed with the broker: one service closing its handle leaves the others' running.
    bus: () => ({ ...shared, close: async () => undefined }),
    async observe(eventTypes, onEvent) {
      await shared.subscribe({
        queue: `observer-${randomUUID()}`,
        eventTypes: [...eventTypes],
        handler: async (envelope) => onEvent({ envelope }),
      });
    },
    async onDeadLetter() {
      // The in-process bus keeps what it gave up on in memory, not on a queue to consume.
    },
    async sendToQueue() {
      throw needsRabbitMQ('sendToQueue');
    },
    async deleteQueues() {},
    close: () => shared.close(),
  };
}
