import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { signatureHelper } from '@kontent-ai/webhook-helper';
import { createKafkaBus } from '@lectern/bus-kafka';
import { addTaxonomy, addWebhook, createOutboxRelay, operator, randomIds, systemClock } from '@lectern/core';
import { openPostgresStore } from '@lectern/store-sql';
import { createTestDatabase, seedProject, startTestReceiver, waitFor } from '@lectern/testing';
import { createHttpSender, createWebhookWorker } from '@lectern/webhooks';
import { startKafka, type RestartableKafka } from '../engines/kafka.ts';

// Restarts a broker of its own; the shared one (inject) only tells whether Kafka is installed.
describe.skipIf(!inject('kafkaBrokers'))('webhooks across a Kafka broker restart', () => {
  let kafka: RestartableKafka | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await kafka?.stop();
    if (kafka?.dir) rmSync(kafka.dir, { recursive: true, force: true });
  });

  it('loses no notification and keeps their order', { timeout: 180_000 }, async () => {
    kafka = await startKafka().catch(() => startKafka());
    const brokers = [kafka.endpoint];
    const store = await openPostgresStore({ connectionString: await createTestDatabase(inject('postgresUrl')) });
    cleanups.push(() => store.close());
    const core = { store, clock: systemClock, ids: randomIds };
    const { projectId } = await seedProject(core, []);
    const receiver = await startTestReceiver();
    cleanups.push(() => receiver.close());
    const secret = 'broker-restart';
    await addWebhook(core, {
      actor: operator,
      projectId,
      format: 'vnext',
      body: {
        name: 'Restart',
        url: receiver.url,
        secret,
        delivery_triggers: { slot: 'published', events: 'all' },
      },
    });

    const topic = `lectern-webhooks-restart-${randomUUID()}`;
    const relayBus = createKafkaBus({ brokers, topic, partitions: 4, publishRetries: 3 });
    cleanups.push(() => relayBus.close());
    const relay = createOutboxRelay({ store, bus: relayBus, clock: systemClock, intervalMs: 50, leaseMs: 5_000 });
    relay.start();
    cleanups.push(() => relay.stop());
    const consumerBus = createKafkaBus({ brokers, topic, partitions: 4, sessionTimeoutMs: 6_000 });
    cleanups.push(() => consumerBus.close());
    const worker = createWebhookWorker({
      store,
      clock: systemClock,
      ids: randomIds,
      bus: consumerBus,
      send: createHttpSender({ isPrivateAllowed: true, timeoutMs: 5_000 }),
      pollMs: 100,
    });
    await worker.start();
    cleanups.push(() => worker.stop());

    const codenames: string[] = [];
    let isWriting = true;
    const writing = (async () => {
      for (let i = 0; isWriting; i += 1) {
        const codename = `group_${i}`;
        await addTaxonomy(core, { actor: operator, projectId, body: { name: codename, codename, terms: [] } });
        codenames.push(codename);
        await sleep(50);
      }
    })();
    const received = () =>
      receiver.received.flatMap((r) =>
        (r.json['notifications'] as { data: { system: { codename: string } }; message: { delivery_slot: string } }[])
          .filter((n) => n.message.delivery_slot === 'published')
          .map((n) => n.data.system.codename),
      );
    await waitFor('notifications before the restart', () => received().length >= 20, 60_000);
    await kafka.restart({ downMs: 2_000 });
    const atRestart = received().length;
    await waitFor('notifications after the restart', () => received().length >= atRestart + 20, 90_000);
    isWriting = false;
    await writing;
    await waitFor('every notification', () => codenames.every((c) => received().includes(c)), 90_000);

    const got = received();
    const firstSeen = got.filter((c, i) => got.indexOf(c) === i);
    expect(firstSeen).toEqual(codenames);
    for (const r of receiver.received)
      expect(
        signatureHelper.isValidSignatureFromString(r.text, secret, r.headers['x-kontent-ai-signature'] as string),
      ).toBe(true);
    console.log(
      `[webhooks-broker-restart] ${codenames.length} taxonomy groups, ${got.length} published-slot notifications received ` +
        `(${got.length - codenames.length} repeats) in ${receiver.received.length} POSTs`,
    );
  });
});
