import { randomUUID } from 'node:crypto';
import type { EventBus } from '@lectern/core';
import { openPostgresStore } from '@lectern/store-sql';
// eslint-disable-next-line no-restricted-imports -- the adapter's own contract test: it runs the shared suite
import { createTestDatabase, describeBusContract } from '@lectern/testing';
import { Kafka, logLevel } from 'kafkajs';
import { describe, inject } from 'vitest';
import { createKafkaBus } from './kafka-bus.ts';

const kafkaBrokers = inject('kafkaBrokers');
const brokers = kafkaBrokers.split(',');

/** Deletes a test topic; a failure only leaves a small topic behind on the test broker. */
async function deleteTopic(topic: string): Promise<void> {
  const admin = new Kafka({ clientId: 'lectern-test-cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    await admin.deleteTopics({ topics: [topic], timeout: 5_000 });
  } catch {
    // Left for the broker's run directory, which goes away with the test run.
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

describe.skipIf(!kafkaBrokers)('Kafka bus', () => {
  describeBusContract({
    adapter: 'Kafka (kafkajs)',
    openSpace: () => {
      const topic = `lectern-contract-${randomUUID()}`;
      const clients: EventBus[] = [];
      return Promise.resolve({
        connect: () => {
          const bus = createKafkaBus({ brokers, topic, partitions: 16, retryDelayMs: 50 });
          clients.push(bus);
          return Promise.resolve(bus);
        },
        async cleanup() {
          await Promise.all(clients.map((bus) => bus.close()));
          await deleteTopic(topic);
        },
      });
    },
    openStore: async () => openPostgresStore({ connectionString: await createTestDatabase(inject('postgresUrl')) }),
    timeoutMs: 30_000,
  });
});
