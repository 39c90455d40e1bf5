import { randomUUID } from 'node:crypto';
import { describe, inject } from 'vitest';
import { createKafkaBus } from '@lectern/bus-kafka';
import type { EventBus } from '@lectern/core';
import { openPostgresStore } from '@lectern/store-sql';
import { describeBusContract } from './bus-contract.ts';
import { createTestDatabase } from './test-database.ts';

const kafkaBrokers = inject('kafkaBrokers');

// Each space is a fresh topic on the run's broker (topics go away with the broker's run directory).
describe.skipIf(!kafkaBrokers)('Kafka bus', () => {
  describeBusContract({
    adapter: 'Kafka (kafkajs)',
    openSpace: () => {
      const topic = `lectern-contract-${randomUUID()}`;
      const clients: EventBus[] = [];
      return Promise.resolve({
        connect: () => {
          const bus = createKafkaBus({ brokers: kafkaBrokers.split(','), topic, partitions: 16, retryDelayMs: 50 });
          clients.push(bus);
          return Promise.resolve(bus);
        },
        cleanup: async () => {
          await Promise.all(clients.map((bus) => bus.close()));
        },
      });
    },
    openStore: async () => openPostgresStore({ connectionString: await createTestDatabase(inject('postgresUrl')) }),
    timeoutMs: 30_000,
  });
});
