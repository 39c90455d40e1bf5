import { setTimeout as sleep } from 'node:timers/promises';
import type { ChangeEvent, EventHandler, EventSubscription } from '@lectern/core';
import type { Consumer, ConsumerConfig, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';

/** A run of consecutive messages of one project in a partition, and the offsets it spans. */
interface Run {
  readonly events: ChangeEvent[];
  readonly firstOffset: string;
  readonly lastOffset: string;
}

/** Turns a message value (the JSON of a ChangeEvent) back into the event, `occurredAt` a Date. */
export function decodeEvent(value: Buffer): ChangeEvent {
  const raw = JSON.parse(value.toString('utf8')) as Omit<ChangeEvent, 'occurredAt'> & { occurredAt: string };
  return { ...raw, occurredAt: new Date(raw.occurredAt) };
}

/**
 * Splits a batch into runs of consecutive events of the same project, in offset order. A run also
 * ends where the sequence goes back: a republish after a failed send puts events in the log again
 * (at-least-once), and each delivery stays ascending.
 */
function runsOf(messages: readonly KafkaMessage[], onError: (error: unknown) => void): Run[] {
  const runs: { events: ChangeEvent[]; firstOffset: string; lastOffset: string }[] = [];
  for (const message of messages) {
    let event: ChangeEvent | undefined;
    try {
      event = message.value ? decodeEvent(message.value) : undefined;
    } catch (error) {
      onError(new Error(`Skipped an undecodable change event at offset ${message.offset}`, { cause: error }));
    }
    const last = runs.at(-1);
    const previous = last?.events.at(-1);
    if (event && last && previous && previous.projectId === event.projectId && previous.seq < event.seq) {
      last.events.push(event);
      last.lastOffset = message.offset;
    } else if (event) runs.push({ events: [event], firstOffset: message.offset, lastOffset: message.offset });
    // A message that holds no event is passed over with the run before it (or alone, empty).
    else if (last) last.lastOffset = message.offset;
    else runs.push({ events: [], firstOffset: message.offset, lastOffset: message.offset });
  }
  return runs;
}

export interface SubscriptionOptions {
  readonly kafka: Kafka;
  readonly topic: string;
  readonly group: string;
  readonly handle: EventHandler;
  readonly consumer: Omit<ConsumerConfig, 'groupId'>;
  /** Partitions handled at once by this member (each partition still strictly in order). */
  readonly concurrency: number;
  /** Wait before the events of a failed handler call are delivered again. */
  readonly retryDelayMs: number;
  /** How long `subscribe` waits for the member to join its group before it gives up. */
  readonly joinTimeoutMs: number;
  readonly onError: (error: unknown) => void;
  readonly onWarning: (error: unknown) => void;
}

/**
 * One member of a consumer group: a kafkajs consumer whose batches are split into runs of one
 * project. A run is committed as soon as its handler call resolves; a rejected call makes the
 * partition read again from the run's first message (nothing after it is handled first).
 * Resolves once the member has joined the group and got its assignment.
 */
export async function subscribeMember(options: SubscriptionOptions): Promise<EventSubscription> {
  const { topic, handle, onError } = options;
  const consumer: Consumer = options.kafka.consumer({ ...options.consumer, groupId: options.group });
  const joined = Promise.withResolvers<void>();
  const removeJoin = consumer.on(consumer.events.GROUP_JOIN, () => joined.resolve());
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    // kafkajs restarts the consumer after a retriable error (e.g. a coordinator still loading).
    if (payload.restart) options.onWarning(payload.error);
    else {
      onError(payload.error);
      joined.reject(payload.error);
    }
  });

  const eachBatch = async (payload: EachBatchPayload) => {
    const { batch, heartbeat, isRunning, isStale } = payload;
    for (const run of runsOf(batch.messages, onError)) {
      if (!isRunning() || isStale()) return;
      if (run.events.length > 0) {
        try {
          await handle(run.events);
        } catch (error) {
          onError(error);
          await sleep(options.retryDelayMs);
          // Read the partition again from the failed run; the rest of this batch is left unhandled.
          if (isRunning() && !isStale()) consumer.seek({ topic, partition: batch.partition, offset: run.firstOffset });
          return;
        }
      }
      payload.resolveOffset(run.lastOffset);
      const next = (BigInt(run.lastOffset) + 1n).toString();
      await payload.commitOffsetsIfNecessary({
        topics: [{ topic, partitions: [{ partition: batch.partition, offset: next }] }],
      });
      await heartbeat();
    }
  };

  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: options.concurrency,
      eachBatch,
    });
    const timer = setTimeout(
      () => joined.reject(new Error(`No group join of ${options.group} within ${options.joinTimeoutMs} ms`)),
      options.joinTimeoutMs,
    );
    await joined.promise.finally(() => clearTimeout(timer));
  } catch (error) {
    await consumer.disconnect().catch(() => undefined);
    throw error;
  } finally {
    removeJoin();
  }

  let stopping: Promise<void> | undefined;
  return {
    // kafkajs waits for the batches under way (their runs are committed as they finish), leaves
    // the group and disconnects.
    stop: () => (stopping ??= consumer.disconnect()),
  };
}
