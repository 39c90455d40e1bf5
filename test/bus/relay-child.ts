/**
 * An outbox relay as its own process, for the kill test (relay-kill.kafka.int.test.ts): opens
 * the PostgreSQL store and a Kafka bus from the environment, starts the relay, prints `ready`,
 * and then one `published <n>` line per acknowledged publish. It runs until it is killed.
 *
 *   LECTERN_RELAY_DATABASE_URL, LECTERN_RELAY_BROKERS (comma-separated), LECTERN_RELAY_TOPIC
 */
import { createKafkaBus } from '@lectern/bus-kafka';
import { createOutboxRelay, systemClock } from '@lectern/core';
import { openPostgresStore } from '@lectern/store-sql';

const setting = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const store = await openPostgresStore({ connectionString: setting('LECTERN_RELAY_DATABASE_URL'), poolSize: 4 });
const bus = createKafkaBus({
  brokers: setting('LECTERN_RELAY_BROKERS').split(','),
  topic: setting('LECTERN_RELAY_TOPIC'),
  clientId: 'lectern-relay-child',
});
const relay = createOutboxRelay({
  store,
  bus,
  clock: systemClock,
  batchSize: 7,
  intervalMs: 20,
  leaseMs: 2_000,
  onPublished: (count) => process.stdout.write(`published ${count}\n`),
  onError: (error) => process.stderr.write(`relay error: ${String(error)}\n`),
});
relay.start();
process.stdout.write('ready\n');

process.once('SIGTERM', () => {
  void relay
    .stop()
    .then(() => Promise.all([bus.close(), store.close()]))
    .finally(() => process.exit(0));
});
