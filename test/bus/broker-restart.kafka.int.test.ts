import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKafkaBus } from '@lectern/bus-kafka';
import { createOutboxRelay, systemClock } from '@lectern/core';
import { openPostgresStore } from '@lectern/store-sql';
import { createTestDatabase, range, recorder, waitFor, waitUntilAllApplied } from '@lectern/testing';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startKafka, type RestartableKafka } from '../engines/kafka.ts';
import { pendingEvents, seedProjects, startWriters } from './outbox-writers.ts';

// This file restarts a broker of its own; the shared one (inject) only tells whether Kafka is installed.
describe.skipIf(!inject('kafkaBrokers'))('a Kafka broker restart under a running relay and consumer', () => {
  let kafka: RestartableKafka | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await kafka?.stop();
    if (kafka?.dir) rmSync(kafka.dir, { recursive: true, force: true });
  });

  it('loses and reorders nothing: every project is applied exactly 1..latest', { timeout: 150_000 }, async () => {
    // A broker of its own; one failed start (seen once: the storage format step died) is tried again.
    kafka = await startKafka().catch((error: unknown) => {
      console.warn(`[broker-restart] the test broker did not start, trying again: ${String(error)}`);
      return startKafka();
    });
    const brokers = [kafka.endpoint];
    const store = await openPostgresStore({ connectionString: await createTestDatabase(inject('postgresUrl')) });
    cleanups.push(() => store.close());
    const projects = await seedProjects(store, 4);
    const topic = `lectern-broker-restart-${randomUUID()}`;

    // The shortest session the broker allows, so that a member lost in the restart is replaced soon.
    const consumerBus = createKafkaBus({ brokers, topic, partitions: 8, sessionTimeoutMs: 6_000 });
    cleanups.push(() => consumerBus.close());
    const rec = recorder();
    await consumerBus.subscribe({ group: 'indexer', handle: rec.handle });

    const relayErrors: unknown[] = [];
    const relayBus = createKafkaBus({ brokers, topic, partitions: 8, publishRetries: 3 });
    cleanups.push(() => relayBus.close());
    const relay = createOutboxRelay({
      store,
      bus: relayBus,
      clock: systemClock,
      batchSize: 10,
      intervalMs: 50,
      leaseMs: 5_000,
      onError: (error) => relayErrors.push(error),
    });
    relay.start();
    cleanups.push(() => relay.stop());
    const writers = startWriters(store, projects, 30);
    cleanups.push(() => writers.stop());

    await waitFor('the consumer applied a good part', () => rec.count() >= 100, 30_000);
    // While the broker is away, committed events wait in the outbox.
    let isRestarting = true;
    let pendingDuringOutage = 0;
    const watching = (async () => {
      while (isRestarting) {
        pendingDuringOutage = Math.max(pendingDuringOutage, await pendingEvents(store));
        await sleep(200);
      }
    })();
    const began = Date.now();
    // Down for longer than a publish keeps retrying (publishRetries), so the relay must see it fail.
    await kafka.restart({ downMs: 2_000 });
    const outageMs = Date.now() - began;
    isRestarting = false;
    await watching;

    const appliedAtRestart = rec.count();
    await waitFor('the consumer applied events after the restart', () => rec.count() >= appliedAtRestart + 100, 60_000);
    await writers.stop();
    const latest = await waitUntilAllApplied(store, projects, rec, 60_000);
    await relay.stop();

    projects.forEach((p, i) => expect(rec.applied(p)).toEqual(range(1, latest[i]!)));
    expect(rec.problems).toEqual([]);
    expect(relayErrors.length).toBeGreaterThan(0);
    expect(pendingDuringOutage).toBeGreaterThan(0);
    const total = latest.reduce((a, b) => a + b, 0);
    console.log(
      `[broker-restart] ${total} events in ${projects.length} projects; broker away ${outageMs} ms, ` +
        `${relayErrors.length} relay errors, up to ${pendingDuringOutage} pending, ` +
        `${rec.received.length - total} duplicate deliveries`,
    );
  });
});
