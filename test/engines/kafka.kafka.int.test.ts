import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { afterAll, describe, expect, inject, it } from 'vitest';

const kafkaBrokers = inject('kafkaBrokers');

describe.skipIf(!kafkaBrokers)('Kafka (KRaft, one node) through kafkajs', () => {
  const kafka = new Kafka({
    clientId: 'lectern-engine-proof',
    brokers: kafkaBrokers.split(','),
    logLevel: logLevel.NOTHING,
    retry: { retries: 10, initialRetryTime: 100 },
  });
  const consumers: Consumer[] = [];
  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.disconnect()));
  });

  it('delivers every produced message exactly once to a consumer group of two, in order per key', async () => {
    const topic = `proof-${randomUUID()}`;
    const groupId = `proof-group-${randomUUID()}`;
    const admin = kafka.admin();
    await admin.connect();
    try {
      await admin.createTopics({ topics: [{ topic, numPartitions: 4 }], waitForLeaders: true });

      // Two members of one group share the four partitions between them.
      const received = new Map<string, { key: string; value: string; partition: number }[]>();
      for (const member of ['a', 'b']) {
        // Short fetch waits: a member notices a rebalance only between fetches.
        const consumer = kafka.consumer({
          groupId,
          sessionTimeout: 10_000,
          heartbeatInterval: 500,
          maxWaitTimeInMs: 250,
        });
        consumers.push(consumer);
        received.set(member, []);
        await consumer.connect();
        await consumer.subscribe({ topic, fromBeginning: true });
        await consumer.run({
          eachMessage: async ({ message, partition }) => {
            received.get(member)?.push({
              key: message.key?.toString() ?? '',
              value: message.value?.toString() ?? '',
              partition,
            });
          },
        });
      }
      await waitFor(async () => {
        const [group] = (await admin.describeGroups([groupId])).groups;
        return group?.state === 'Stable' && group.members.length === 2;
      }, 'the consumer group to be stable with two members');

      const producer = kafka.producer({ allowAutoTopicCreation: false });
      await producer.connect();
      const produced = Array.from({ length: 40 }, (_, i) => ({ key: `item-${i % 8}`, value: `message-${i}` }));
      try {
        // One message per send, so that the order per key is the order of these calls.
        for (const message of produced) await producer.send({ topic, messages: [message], acks: -1 });
      } finally {
        await producer.disconnect();
      }

      const all = () => [...received.values()].flat();
      await waitFor(async () => all().length >= produced.length, `${produced.length} messages to arrive`);
      await sleep(500); // A duplicate, if any, would arrive now.

      expect(
        all()
          .map((m) => m.value)
          .sort(),
      ).toEqual(produced.map((m) => m.value).sort());
      // Both members took part, and no partition was consumed by both.
      const partitionsOf = (member: string) => new Set(received.get(member)?.map((m) => m.partition));
      expect(partitionsOf('a').size).toBeGreaterThan(0);
      expect(partitionsOf('b').size).toBeGreaterThan(0);
      expect([...partitionsOf('a')].filter((p) => partitionsOf('b').has(p))).toEqual([]);
      // Messages with the same key land on one partition and arrive in the order they were sent.
      for (const key of new Set(produced.map((m) => m.key))) {
        const sent = produced.filter((m) => m.key === key).map((m) => m.value);
        expect(
          all()
            .filter((m) => m.key === key)
            .map((m) => m.value),
        ).toEqual(sent);
      }

      // The group committed its progress: its offset on each partition is that partition's end
      // (a partition that got no message has no committed offset, reported as -1).
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
      const ends = await admin.fetchTopicOffsets(topic);
      const committedOffsets = new Map(committed?.partitions.map((p) => [p.partition, p.offset]));
      for (const end of ends) {
        expect(committedOffsets.get(end.partition)).toBe(end.high === '0' ? '-1' : end.high);
      }
    } finally {
      await admin.disconnect();
    }
  });
});

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
