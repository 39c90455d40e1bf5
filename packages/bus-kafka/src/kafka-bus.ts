import type { ChangeEvent, EventBus, EventSubscription } from '@lectern/core';
import { Kafka, logLevel, Partitioners, type Admin, type LogEntry, type Producer } from 'kafkajs';
import { subscribeMember } from './kafka-subscription.ts';

/** A kafkajs log line of level warn or error. */
export interface KafkaLogEntry {
  readonly level: 'warn' | 'error';
  readonly namespace: string;
  readonly message: string;
  readonly extra: Readonly<Record<string, unknown>>;
}

export interface KafkaBusOptions {
  /** Bootstrap brokers, `host:port`. */
  readonly brokers: readonly string[];
  /** Topic of change events. Default `lectern.change-events`. */
  readonly topic?: string;
  /** Partitions of the topic when this client creates it. Default 16. */
  readonly partitions?: number;
  /** Replicas of each partition when this client creates the topic. Default -1: the broker's default. */
  readonly replicationFactor?: number;
  /** Client id in broker logs. Default `lectern`. */
  readonly clientId?: string;
  /** Tries of a publish before it rejects (kafkajs retries with backoff, ~3 s in all). Default 5. */
  readonly publishRetries?: number;
  /** Wait before the events of a failed handler call are delivered again. Default 200 ms. */
  readonly retryDelayMs?: number;
  /** Partitions one member handles at once (each partition stays in order). Default 4. */
  readonly concurrency?: number;
  /** How long `subscribe` waits for the member to join its group. Default 60 s. */
  readonly joinTimeoutMs?: number;
  /** Member session timeout: how long a member that stopped heartbeating keeps its partitions. Default 10 s. */
  readonly sessionTimeoutMs?: number;
  /** Errors of the bus that no caller sees: handler failures, consumer crashes, undecodable messages. */
  readonly onError?: (error: unknown) => void;
  /** Failures kafkajs recovers from by itself, e.g. a consumer restarting after a retriable error. */
  readonly onWarning?: (error: unknown) => void;
  /** kafkajs log lines of level warn and error. Default: dropped. */
  readonly log?: (entry: KafkaLogEntry) => void;
}

/** kafkajs warns about this on purpose-made, bounded producer retries; nothing to report. */
const expectedWarning = 'Limiting retries for the idempotent producer';

/**
 * The change-event bus of the cluster shape, on Apache Kafka (kafkajs). One topic keyed by
 * project id, so a project's events stay in one partition and in order. The producer is
 * idempotent with one request in flight, so order holds through its retries; a publish that
 * still fails rejects (the relay publishes again) and the producer is replaced, so the next
 * publish starts on a fresh producer id. Each subscription is one member of a consumer group.
 */
export function createKafkaBus(options: KafkaBusOptions): EventBus {
  const topic = options.topic ?? 'lectern.change-events';
  const onError = options.onError ?? (() => undefined);
  const kafka = new Kafka({
    clientId: options.clientId ?? 'lectern',
    brokers: [...options.brokers],
    logLevel: logLevel.WARN,
    logCreator: () => (entry: LogEntry) => {
      if (entry.log.message.startsWith(expectedWarning)) return;
      const { message, ...extra } = entry.log;
      const level = entry.level === logLevel.ERROR ? 'error' : 'warn';
      options.log?.({ level, namespace: entry.namespace, message, extra });
    },
    retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 2_000 },
  });
  let admin: Promise<Admin> | undefined;
  let producer: Promise<Producer> | undefined;
  let topicReady: Promise<void> | undefined;
  const subscriptions = new Set<EventSubscription>();
  let isClosed = false;

  /** A memoized connection, forgotten when it fails so that the next call tries again. */
  const lazily = <T>(
    get: () => Promise<T> | undefined,
    set: (p: Promise<T> | undefined) => void,
    open: () => Promise<T>,
  ) => {
    const existing = get();
    if (existing) return existing;
    const opening = open();
    set(opening);
    opening.catch(() => {
      if (get() === opening) set(undefined);
    });
    return opening;
  };

  const connectedAdmin = () =>
    lazily(
      () => admin,
      (p) => (admin = p),
      async () => {
        const client = kafka.admin();
        await client.connect();
        return client;
      },
    );

  const ensureTopic = () =>
    lazily(
      () => topicReady,
      (p) => (topicReady = p),
      async () => {
        const client = await connectedAdmin();
        const numPartitions = options.partitions ?? 16;
        const replicationFactor = options.replicationFactor ?? -1;
        const isCreated = await client.createTopics({
          waitForLeaders: true,
          topics: [{ topic, numPartitions, replicationFactor }],
        });
        // Created by another client meanwhile: wait until its partitions have leaders.
        if (!isCreated) await client.fetchTopicMetadata({ topics: [topic] });
      },
    );

  const connectedProducer = () =>
    lazily(
      () => producer,
      (p) => (producer = p),
      async () => {
        const client = kafka.producer({
          idempotent: true,
          maxInFlightRequests: 1,
          allowAutoTopicCreation: false,
          createPartitioner: Partitioners.DefaultPartitioner,
          retry: { retries: options.publishRetries ?? 5, initialRetryTime: 100, maxRetryTime: 2_000 },
        });
        await client.connect();
        return client;
      },
    );

  /** Replaces a producer whose send failed: its sequence numbers may no longer match the broker's. */
  const dropProducer = async (failed: Producer) => {
    if (producer && (await producer.catch(() => undefined)) === failed) producer = undefined;
    await failed.disconnect().catch(() => undefined);
  };

  const closedError = () => new Error('The event bus is closed.');

  return {
    async publish(events: readonly ChangeEvent[]) {
      if (isClosed) throw closedError();
      const projectId = events[0]?.projectId;
      if (projectId === undefined) return;
      if (events.some((e) => e.projectId !== projectId))
        throw new Error('One publish carries the events of one project.');
      await ensureTopic();
      const client = await connectedProducer();
      try {
        await client.send({
          topic,
          acks: -1,
          messages: events.map((event) => ({ key: projectId, value: JSON.stringify(event) })),
        });
      } catch (error) {
        await dropProducer(client);
        throw error;
      }
    },

    async subscribe({ group, handle }) {
      if (isClosed) throw closedError();
      await ensureTopic();
      const member = await subscribeMember({
        kafka,
        topic,
        group,
        handle,
        onError,
        onWarning: options.onWarning ?? (() => undefined),
        concurrency: options.concurrency ?? 4,
        retryDelayMs: options.retryDelayMs ?? 200,
        joinTimeoutMs: options.joinTimeoutMs ?? 60_000,
        consumer: {
          allowAutoTopicCreation: false,
          sessionTimeout: options.sessionTimeoutMs ?? 10_000,
          heartbeatInterval: 500,
          maxWaitTimeInMs: 200,
          // A consumer rides out a broker outage: it keeps trying, and kafkajs restarts it after a crash.
          retry: { retries: 10, initialRetryTime: 200, maxRetryTime: 3_000 },
        },
      });
      const subscription: EventSubscription = {
        async stop() {
          subscriptions.delete(subscription);
          await member.stop();
        },
      };
      subscriptions.add(subscription);
      if (isClosed) await subscription.stop();
      return subscription;
    },

    async lag(group) {
      await ensureTopic();
      const client = await connectedAdmin();
      const [ends, committed] = await Promise.all([
        client.fetchTopicOffsets(topic),
        client.fetchOffsets({ groupId: group, topics: [topic] }),
      ]);
      const committedBy = new Map(committed[0]?.partitions.map((p) => [p.partition, BigInt(p.offset)]));
      let lag = 0n;
      for (const { partition, high, low } of ends) {
        const from = committedBy.get(partition) ?? -1n;
        // No commit yet (-1): the group would start at the oldest message still held.
        const start = from < BigInt(low) ? BigInt(low) : from;
        lag += BigInt(high) > start ? BigInt(high) - start : 0n;
      }
      return Number(lag);
    },

    async close() {
      isClosed = true;
      await Promise.all([...subscriptions].map((s) => s.stop()));
      const [openProducer, openAdmin] = [producer, admin];
      producer = admin = undefined;
      await Promise.all([
        openProducer?.then((p) => p.disconnect()).catch(() => undefined),
        openAdmin?.then((a) => a.disconnect()).catch(() => undefined),
      ]);
    },
  };
}
