import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createKafkaBus } from '@lectern/bus-kafka';
import type { ChangeEvent, EventBus } from '@lectern/core';
import { createChangeHub, type ChangeHub } from './change-hub.ts';

/*
 * Two Management replicas, each with its own Kafka client and change hub: an event published by
 * any process reaches the listeners of both (each hub reads in a consumer group of its own).
 */

const kafkaBrokers = inject('kafkaBrokers');

describe.skipIf(!kafkaBrokers)('the change hub on Kafka', () => {
  const topic = `lectern-app-changes-test-${randomUUID()}`;
  const clients: EventBus[] = [];
  const hubs: ChangeHub[] = [];
  const connect = () => {
    const bus = createKafkaBus({ brokers: kafkaBrokers.split(','), topic, partitions: 4, retryDelayMs: 50 });
    clients.push(bus);
    return bus;
  };
  afterAll(async () => {
    await Promise.all(hubs.map((hub) => hub.close()));
    await Promise.all(clients.map((bus) => bus.close()));
  });

  it("delivers a project's events to the listeners of every replica", async () => {
    const projectId = randomUUID();
    const seen: number[][] = [[], []];
    for (const list of seen) {
      const hub = createChangeHub();
      hubs.push(hub);
      await hub.attach(connect());
      hub.listen(
        projectId,
        (events) => list.push(...events.map((e) => e.seq)),
        () => undefined,
      );
    }
    const event = (seq: number): ChangeEvent => ({
      projectId,
      seq,
      objectKind: 'variant',
      operation: 'upsert',
      objectId: randomUUID(),
      channel: 'delivery_preview',
      payload: {},
      occurredAt: new Date(),
    });
    await connect().publish([event(1), event(2)]);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && seen.some((list) => list.length < 2)) await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual([
      [1, 2],
      [1, 2],
    ]);
  }, 40_000);
});
