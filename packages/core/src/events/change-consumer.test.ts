import { describe, expect, it } from 'vitest';
import type { Store } from '../ports/store.ts';
import { createSerialQueue } from '../serial-queue.ts';
import { createChangeConsumer } from './change-consumer.ts';
import { events } from './change-events.test-fixture.ts';
import { createInProcessBus } from './in-process-bus.ts';

/** The store as the loop sees it: it only lists projects. */
const storeOf = (ids: readonly string[]) =>
  ({
    transaction: async (work: (tx: unknown) => Promise<unknown>) =>
      work({ projects: { list: async () => ids.map((id) => ({ id })) } }),
  }) as unknown as Store;

const settle = () => new Promise((r) => setTimeout(r, 30));

describe('change consumer (the loop of the indexer, recommendation consumer and webhook worker)', () => {
  it('catches every project up before it joins the group, then hands over the bus events', async () => {
    const bus = createInProcessBus({ partitions: 1, retryDelayMs: 5 });
    const log: string[] = [];
    const consumer = createChangeConsumer({
      name: 'test',
      store: storeOf(['a', 'b']),
      bus,
      group: 'g',
      catchUpProject: async (id) => void log.push(`catch-up ${id}`),
      handle: async (batch) => void log.push(`events ${batch.map((e) => e.seq).join(',')}`),
    });
    await consumer.start();
    await bus.publish(events('a', 1, 2));
    await settle();
    await consumer.stop();
    expect(log).toEqual(['catch-up a', 'catch-up b', 'events 1,2']);
    await bus.close();
  });

  it('reports a failed delivery and gets the events again', async () => {
    const bus = createInProcessBus({ partitions: 1, retryDelayMs: 5 });
    const errors: unknown[] = [];
    let calls = 0;
    const consumer = createChangeConsumer({
      name: 'test',
      store: storeOf([]),
      bus,
      group: 'g',
      catchUpProject: async () => undefined,
      handle: async () => {
        calls += 1;
        if (calls === 1) throw new Error('first try fails');
      },
      onError: (error) => errors.push(error),
    });
    await consumer.start();
    await bus.publish(events('a', 1, 1));
    await settle();
    await consumer.stop();
    expect(errors.map((e) => (e as Error).message)).toEqual(['first try fails']);
    expect(calls).toBe(2);
    await bus.close();
  });

  it('runs catch-ups and deliveries one at a time through its queue', async () => {
    const bus = createInProcessBus({ partitions: 4, retryDelayMs: 5 });
    let running = 0;
    let most = 0;
    const work = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      running -= 1;
    };
    const consumer = createChangeConsumer({
      name: 'test',
      store: storeOf(['a']),
      bus,
      group: 'g',
      passes: createSerialQueue(),
      catchUpProject: work,
      handle: work,
    });
    await consumer.start();
    await Promise.all(['p1', 'p2', 'p3', 'p4'].map((p) => bus.publish(events(p, 1, 1))));
    await Promise.all([consumer.catchUp(), consumer.catchUp('a'), settle()]);
    await consumer.stop();
    expect(most).toBe(1);
    await bus.close();
  });

  it('needs a bus to start unless the bus is optional', async () => {
    const options = { name: 'createThing', store: storeOf([]), group: 'g', catchUpProject: async () => 0 };
    const strict = createChangeConsumer({ ...options, handle: async () => undefined });
    await expect(strict.start()).rejects.toThrow('createThing: start needs an event bus.');
    let caughtUp = 0;
    const lenient = createChangeConsumer({
      ...options,
      isBusOptional: true,
      catchUpProject: async () => (caughtUp += 1),
      store: storeOf(['x']),
      handle: async () => undefined,
    });
    await lenient.start();
    expect(caughtUp).toBe(1);
  });
});
