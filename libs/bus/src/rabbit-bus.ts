import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import amqp, { type Channel, type ChannelModel, type ConfirmChannel, type ConsumeMessage } from 'amqplib';
import { EVENTS_EXCHANGE, REQUEST_ID_HEADER, eventEnvelopeSchema, type EventEnvelope } from '@tolk/contracts';
import { currentRequestId, runWithRequestId, type Logger } from '@tolk/logger';
import { checkRetryDelays, retryDelayAfter, type Bus, type SubscribeOptions } from './bus.js';
import { UNREADABLE_EVENT, noteConsumerFailure, noteDeadLettered, watchDeadLetterDepths } from './metrics.js';

/** Where a consumer's rejected messages go; each queue has its own `<queue>.dlq` bound here. */
export const DEAD_LETTER_EXCHANGE = 'tolk.dlx';
/** Header carrying how many times the handler has been tried (1 on the first delivery). */
export const ATTEMPT_HEADER = 'x-attempt';

const RECONNECT_INITIAL_DELAY_MS = 250;
const RECONNECT_MAX_DELAY_MS = 5_000;
const CONNECT_TIMEOUT_MS = 10_000;
const CLOSE_GRACE_MS = 5_000;
const DEFAULT_MAX_ATTEMPTS = 5;
const DEFAULT_PREFETCH = 10;
/**
 * The waits before the retries of a failed message; one retry queue per distinct delay, whose
 * name carries the delay: a queue's TTL can never change under it (a redeclaration with other
 * arguments is refused), a new delay is a new queue.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [200, 400, 800, 1_600, 3_200, 5_000];

/**
 * Where a failed message of `queue` waits `delayMs` (the queue's message TTL) before the broker
 * dead-letters it back to `queue` through the default exchange. One fixed delay per queue: a
 * message expires only at a queue's head, so mixed delays in one queue would hold short ones back.
 */
export function retryQueueName(queue: string, delayMs: number): string {
  return `${queue}.retry.${delayMs}ms`;
}

/** The distinct delays a consumer's messages can wait, given its tries and delays. */
function retryDelaysUsed(maxAttempts: number, retryDelaysMs: readonly number[]): number[] {
  return [...new Set(retryDelaysMs.slice(0, Math.max(0, maxAttempts - 1)))];
}

/**
 * Every queue a consumer of `queue` declares: the queue, its dead-letter queue and its retry
 * queues (for deleting a test's queues; `maxAttempts` defaults to every retry queue there can be).
 */
export function consumerQueueNames(
  queue: string,
  options: { maxAttempts?: number; retryDelaysMs?: readonly number[] } = {},
): string[] {
  const delays = retryDelaysUsed(
    options.maxAttempts ?? Infinity,
    options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
  );
  return [queue, `${queue}.dlq`, ...delays.map((delayMs) => retryQueueName(queue, delayMs))];
}

/** The broker returned a retry copy as unroutable: its retry queue is gone. */
class UnroutableRetryError extends Error {}

export type RabbitBusOptions = {
  url: string;
  logger: Logger;
  /** The publishing service; sent as the message's appId and in the connection name. */
  producer?: string;
  /** Shown by the broker (`rabbitmqctl list_connections client_properties`). */
  connectionName?: string;
  /** How long publish() waits through an outage before it rejects. Default 30 s. */
  publishTimeoutMs?: number;
};

type Subscription = Required<Pick<SubscribeOptions, 'maxAttempts' | 'prefetch' | 'retryDelaysMs'>> &
  SubscribeOptions;

/** One live AMQP connection with the channels built on it; replaced wholesale on any failure. */
type Connection = {
  model: ChannelModel;
  publisher: ConfirmChannel;
  /** Retry copies the broker returned (mandatory, unroutable), by returnKey, until their confirm. */
  returned: Map<string, number>;
  consumers: Map<Subscription, { channel: Channel; consumerTag: string }>;
  lost: boolean;
};

type Waiter = { resolve: (connection: Connection) => void; reject: (err: Error) => void };

/**
 * RabbitMQ behind the Bus interface: a durable topic exchange keyed by event type, publisher
 * confirms, one durable queue per consumer with bounded retries and a dead-letter queue, and
 * reconnection that re-declares the topology and re-subscribes every consumer.
 *
 * It connects in the background: publish() and subscribe() wait for the connection, so a
 * service can start while the broker is still coming up.
 */
export function createRabbitBus(options: RabbitBusOptions): Bus {
  const { url, logger, producer } = options;
  const publishTimeoutMs = options.publishTimeoutMs ?? 30_000;
  const connectionName =
    options.connectionName ??
    `tolk:${producer ?? 'bus'}:${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

  const subscriptions: Subscription[] = [];
  const waiters = new Set<Waiter>();
  const inflight = new Set<Promise<void>>();
  let current: Connection | undefined;
  let connecting: Promise<void> | undefined;
  let closed = false;
  let interruptSleep: (() => void) | undefined;

  async function openConnection(): Promise<Connection> {
    const model = await amqp.connect(url, {
      clientProperties: { connection_name: connectionName },
      timeout: CONNECT_TIMEOUT_MS,
      // Without it, Nagle's algorithm against the broker's delayed ACKs holds small frames (a
      // publish, an ack) for up to ~40 ms: events must leave within milliseconds.
      noDelay: true,
    });
    // Listeners go on at once: an 'error' emitted with none would crash the process.
    const state = { lost: false, connection: undefined as Connection | undefined };
    model.on('error', (err: Error) => logger.warn({ err }, 'amqp connection error'));
    model.on('close', (err?: Error) => {
      state.lost = true;
      if (state.connection) lose(state.connection, err);
    });
    try {
      const publisher = await model.createConfirmChannel();
      publisher.on('error', (err: Error) => logger.warn({ err }, 'amqp publish channel error'));
      const connection: Connection = {
        model,
        publisher,
        returned: new Map(),
        consumers: new Map(),
        lost: state.lost,
      };
      state.connection = connection;
      // The broker sends a return before the confirm of the same message.
      publisher.on('return', (message: amqp.Message) => {
        const key = returnKey(message.fields.routingKey, message.properties);
        connection.returned.set(key, (connection.returned.get(key) ?? 0) + 1);
      });
      publisher.on('close', () => lose(connection, new Error('publish channel closed')));
      await publisher.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
      await publisher.assertExchange(DEAD_LETTER_EXCHANGE, 'direct', { durable: true });
      for (const subscription of subscriptions) await startConsumer(connection, subscription);
      if (connection.lost) throw new Error('amqp connection lost during setup');
      return connection;
    } catch (err) {
      await model.close().catch(() => undefined);
      throw err;
    }
  }

  async function connectUntilConnected(): Promise<void> {
    let delay = RECONNECT_INITIAL_DELAY_MS;
    while (!closed) {
      try {
        const connection = await openConnection();
        if (closed) {
          await connection.model.close().catch(() => undefined);
          return;
        }
        current = connection;
        logger.info({ connectionName, consumers: subscriptions.length }, 'amqp connected');
        for (const waiter of waiters) waiter.resolve(connection);
        waiters.clear();
        return;
      } catch (err) {
        if (closed) return;
        logger.warn({ err, retryInMs: delay }, 'amqp connect failed; retrying');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          interruptSleep = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        interruptSleep = undefined;
        delay = Math.min(delay * 2, RECONNECT_MAX_DELAY_MS);
      }
    }
  }

  function ensureConnecting(): void {
    if (closed || connecting) return;
    connecting = connectUntilConnected().finally(() => {
      connecting = undefined;
    });
  }

  /** Any dropped channel or connection: discard the whole connection and build a new one. */
  function lose(connection: Connection, reason?: Error): void {
    if (connection.lost) return;
    connection.lost = true;
    if (current === connection) {
      current = undefined;
      logger.warn({ err: reason, connectionName }, 'amqp connection lost; reconnecting');
    }
    connection.model.close().catch(() => undefined);
    ensureConnecting();
  }

  /** The live connection; waits for the next one during an outage (for at most `timeoutMs`). */
  function waitForConnection(timeoutMs?: number): Promise<Connection> {
    if (current && !current.lost) return Promise.resolve(current);
    if (closed) return Promise.reject(new Error('bus is closed'));
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        resolve: (connection) => {
          clearTimeout(timer);
          resolve(connection);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      if (timeoutMs !== undefined) {
        timer = setTimeout(
          () => {
            waiters.delete(waiter);
            reject(new Error(`broker unavailable for ${publishTimeoutMs} ms`));
          },
          Math.max(0, timeoutMs),
        );
      }
      waiters.add(waiter);
    });
  }

  async function startConsumer(connection: Connection, subscription: Subscription): Promise<void> {
    if (connection.consumers.has(subscription)) return;
    const { queue, eventTypes, prefetch } = subscription;
    const deadLetterQueue = `${queue}.dlq`;
    const channel = await connection.model.createChannel();
    channel.on('error', (err: Error) => logger.warn({ err, queue }, 'amqp consumer channel error'));
    try {
      await channel.prefetch(prefetch);
      await channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
      await channel.assertExchange(DEAD_LETTER_EXCHANGE, 'direct', { durable: true });
      await channel.assertQueue(deadLetterQueue, { durable: true });
      await channel.bindQueue(deadLetterQueue, DEAD_LETTER_EXCHANGE, queue);
      // The main queue's arguments are the ones every earlier version declared: a queue of a
      // running deployment is redeclared as it is, never refused for new arguments.
      await channel.assertQueue(queue, {
        durable: true,
        deadLetterExchange: DEAD_LETTER_EXCHANGE,
        deadLetterRoutingKey: queue,
      });
      await declareRetryQueues(channel, subscription);
      for (const type of eventTypes) await channel.bindQueue(queue, EVENTS_EXCHANGE, type);
      const { consumerTag } = await channel.consume(queue, (message) => {
        if (message === null) {
          lose(connection, new Error(`consumer of ${queue} cancelled by the broker`));
          return;
        }
        // Every line logged about the message, failures included, carries the request that caused it.
        const requestId: unknown = message.properties.headers?.[REQUEST_ID_HEADER];
        const handle = () => handleDelivery(connection, channel, subscription, message);
        const delivery = (
          typeof requestId === 'string' && requestId ? runWithRequestId(requestId, handle) : handle()
        ).catch((err: unknown) =>
          logger.error({ err, queue }, 'message handling failed; the broker will redeliver it'),
        );
        inflight.add(delivery);
        void delivery.finally(() => inflight.delete(delivery));
      });
      connection.consumers.set(subscription, { channel, consumerTag });
      channel.on('close', () => lose(connection, new Error(`consumer channel of ${queue} closed`)));
    } catch (err) {
      await channel.close().catch(() => undefined);
      throw err;
    }
  }

  async function declareRetryQueues(channel: Channel, subscription: Subscription): Promise<void> {
    const { queue, maxAttempts, retryDelaysMs } = subscription;
    for (const delayMs of retryDelaysUsed(maxAttempts, retryDelaysMs)) {
      await channel.assertQueue(retryQueueName(queue, delayMs), {
        durable: true,
        messageTtl: delayMs,
        deadLetterExchange: '',
        deadLetterRoutingKey: queue,
      });
    }
  }

  /** Publishes a retry copy, confirmed; rejects when the broker returned it as unroutable. */
  async function publishRetry(
    connection: Connection,
    retryQueue: string,
    content: Buffer,
    options: amqp.Options.Publish,
  ): Promise<void> {
    await confirmPublish(connection.publisher, '', retryQueue, content, { ...options, mandatory: true });
    const key = returnKey(retryQueue, options);
    const returns = connection.returned.get(key) ?? 0;
    if (returns === 0) return;
    if (returns === 1) connection.returned.delete(key);
    else connection.returned.set(key, returns - 1);
    throw new UnroutableRetryError(`retry queue ${retryQueue} does not exist`);
  }

  async function handleDelivery(
    connection: Connection,
    channel: Channel,
    subscription: Subscription,
    message: ConsumeMessage,
  ): Promise<void> {
    const { queue, maxAttempts, retryDelaysMs } = subscription;
    const headers: Record<string, unknown> = message.properties.headers ?? {};
    const attempt = Math.max(1, Number(headers[ATTEMPT_HEADER]) || 1);
    const messageId: unknown = message.properties.messageId;
    // The channel may be gone by the time we settle; the broker then redelivers the message.
    const settle = (action: () => void) => {
      try {
        action();
      } catch (err) {
        logger.warn({ err, queue, messageId }, 'could not settle message; the broker will redeliver it');
      }
    };

    let envelope: EventEnvelope;
    try {
      envelope = eventEnvelopeSchema.parse(JSON.parse(message.content.toString('utf8')));
    } catch (err) {
      logger.error({ err, queue, messageId }, 'unreadable message sent to the dead-letter queue');
      noteConsumerFailure(queue, UNREADABLE_EVENT);
      noteDeadLettered(queue, UNREADABLE_EVENT);
      settle(() => channel.nack(message, false, false));
      return;
    }

    const log = { queue, eventId: envelope.id, eventType: envelope.type, attempt, maxAttempts };
    try {
      await subscription.handler(envelope, { redelivered: message.fields.redelivered, attempt });
      settle(() => channel.ack(message));
      return;
    } catch (err) {
      noteConsumerFailure(queue, envelope.type);
      if (attempt >= maxAttempts) {
        noteDeadLettered(queue, envelope.type);
        logger.error(
          { ...log, err },
          'event handler failed for the last time; sent to the dead-letter queue',
        );
        settle(() => channel.nack(message, false, false));
        return;
      }
      const delayMs = retryDelayAfter(attempt, retryDelaysMs);
      logger.warn({ ...log, err, retryInMs: delayMs }, 'event handler failed; retrying');
      // A lost channel cannot settle: the broker redelivers the unacked original.
      if (connection.lost) return;
      const retryQueue = retryQueueName(queue, delayMs);
      // The copy waits in a retry queue, not in this handler: the prefetch slot is free at once
      // and the consumer takes other messages meanwhile. The original is acked only once the
      // broker confirmed the copy, so a crash in between duplicates the message, never loses it.
      try {
        await publishRetry(connection, retryQueue, message.content, {
          persistent: true,
          contentType: message.properties.contentType,
          messageId: message.properties.messageId,
          appId: message.properties.appId,
          type: message.properties.type,
          headers: { ...headers, [ATTEMPT_HEADER]: attempt + 1 },
        });
        settle(() => channel.ack(message));
      } catch (retryErr) {
        logger.warn({ ...log, err: retryErr, retryQueue }, 'could not schedule the retry; requeueing');
        // Deleted under a running consumer: declared again, so the requeued message's retry lands.
        if (retryErr instanceof UnroutableRetryError) {
          await declareRetryQueues(channel, subscription).catch(() => undefined);
        }
        settle(() => channel.nack(message, false, true));
      }
    }
  }

  /** Each consumer's dead-letter queue depth, on a channel of its own: a failed check closes only it. */
  async function deadLetterDepths(): Promise<Array<{ queue: string; messages: number }>> {
    if (subscriptions.length === 0) return [];
    const connection = current;
    // Unknown during an outage: the last depths stay reported.
    if (!connection || connection.lost) throw new Error('not connected to RabbitMQ');
    const channel = await connection.model.createChannel();
    channel.on('error', () => undefined);
    try {
      const depths = [];
      for (const { queue } of subscriptions) {
        depths.push({ queue, messages: (await channel.checkQueue(`${queue}.dlq`)).messageCount });
      }
      return depths;
    } finally {
      await channel.close().catch(() => undefined);
    }
  }
  const stopReportingDeadLetters = watchDeadLetterDepths(deadLetterDepths);

  ensureConnecting();

  return {
    async publish(envelope) {
      const event = eventEnvelopeSchema.parse(envelope);
      const content = Buffer.from(JSON.stringify(event));
      const requestId = currentRequestId();
      const publishOptions = {
        persistent: true,
        contentType: 'application/json',
        messageId: event.id,
        type: event.type,
        ...(producer ? { appId: producer } : {}),
        headers: requestId ? { [REQUEST_ID_HEADER]: requestId } : {},
      };
      const deadline = Date.now() + publishTimeoutMs;
      for (;;) {
        const connection = await waitForConnection(deadline - Date.now());
        try {
          await withTimeout(
            confirmPublish(connection.publisher, EVENTS_EXCHANGE, event.type, content, publishOptions),
            deadline - Date.now(),
            `broker did not confirm ${event.type} ${event.id} within ${publishTimeoutMs} ms`,
          );
          return;
        } catch (err) {
          // A message too large for a frame and the like will never succeed: report it now.
          if (closed || err instanceof RangeError || err instanceof TypeError || Date.now() >= deadline) {
            throw err;
          }
          logger.debug({ err, eventId: event.id }, 'publish failed; retrying');
          if (!connection.lost) await sleep(100);
        }
      }
    },

    async subscribe(options) {
      if (closed) throw new Error('bus is closed');
      if (!options.queue || options.eventTypes.length === 0) {
        throw new Error('subscribe needs a queue and at least one event type');
      }
      const subscription: Subscription = {
        ...options,
        maxAttempts: Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS),
        prefetch: Math.max(1, options.prefetch ?? DEFAULT_PREFETCH),
        retryDelaysMs: checkRetryDelays(options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS),
      };
      for (;;) {
        const connection = await waitForConnection();
        try {
          await startConsumer(connection, subscription);
        } catch (err) {
          if (connection.lost && !closed) continue;
          // The broker refused this consumer (e.g. the queue exists with other arguments).
          throw err;
        }
        // Only a consumer the broker accepted is set up again on every reconnection.
        if (!subscriptions.includes(subscription)) subscriptions.push(subscription);
        // Lost right after the setup: make sure the next connection has it too.
        if (!connection.lost || closed) return;
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      stopReportingDeadLetters();
      interruptSleep?.();
      for (const waiter of waiters) waiter.reject(new Error('bus is closed'));
      waiters.clear();
      const connection = current;
      current = undefined;
      if (connection) {
        connection.lost = true;
        // Stop taking messages, let running handlers ack, then close.
        await Promise.allSettled(
          [...connection.consumers.values()].map(({ channel, consumerTag }) => channel.cancel(consumerTag)),
        );
        await withTimeout(Promise.allSettled([...inflight]), CLOSE_GRACE_MS, 'handlers still running').catch(
          () => logger.warn({ running: inflight.size }, 'closing the bus with handlers still running'),
        );
        // Done when the socket goes away too; bounded, as a broker that stopped answering would
        // never acknowledge the close.
        const socketClosed = new Promise<void>((resolve) => connection.model.once('close', () => resolve()));
        const closing = Promise.race([connection.model.close().catch(() => undefined), socketClosed]);
        await withTimeout(closing, CLOSE_GRACE_MS, 'amqp close timed out').catch((err: unknown) =>
          logger.warn({ err }, 'amqp connection did not close cleanly'),
        );
      }
      await connecting;
    },

    isConnected() {
      return current !== undefined && !current.lost;
    },
  };
}

function confirmPublish(
  channel: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: Buffer,
  options: amqp.Options.Publish,
): Promise<void> {
  return new Promise((resolve, reject) => {
    try {
      channel.publish(exchange, routingKey, content, options, (err: unknown) =>
        err ? reject(err instanceof Error ? err : new Error('message nacked by the broker')) : resolve(),
      );
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/** What identifies a returned retry copy: its queue, event and try. */
function returnKey(
  routingKey: string,
  properties: { messageId?: unknown; headers?: Record<string, unknown> },
) {
  return `${routingKey}\n${String(properties.messageId)}\n${String(properties.headers?.[ATTEMPT_HEADER])}`;
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), Math.max(0, ms));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
