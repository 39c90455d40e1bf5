import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessBus, type ChangeEvent, type EventBus } from '@lectern/core';
import { createChangeHub, type ChangeHub } from './change-hub.ts';

const now = new Date('2026-11-27T12:00:00Z');
const event = (projectId: string, seq: number, occurredAt = now): ChangeEvent => ({
  projectId,
  seq,
  objectKind: 'item',
  operation: 'update',
  objectId: null,
  channel: 'management',
  payload: {},
  occurredAt,
});

let bus: EventBus;
let hub: ChangeHub;
afterEach(async () => {
  await hub.close();
  await bus.close();
});

async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 50));
}

describe('the change hub', () => {
  it("passes on a project's new events to its listeners only, once, and none from before it joined", async () => {
    bus = createInProcessBus();
    await bus.publish([event('a', 1, new Date(now.getTime() - 60_000))]); // held by the bus: a replay
    hub = createChangeHub({ now: () => now });
    await hub.attach(bus);
    const seen: number[] = [];
    const other: number[] = [];
    hub.listen(
      'a',
      (events) => seen.push(...events.map((e) => e.seq)),
      () => undefined,
    );
    hub.listen(
      'b',
      (events) => other.push(...events.map((e) => e.seq)),
      () => undefined,
    );
    await bus.publish([event('a', 2), event('a', 3)]);
    await bus.publish([event('a', 3), event('a', 4)]); // an at-least-once repeat of 3
    await settle();
    expect(seen).toEqual([2, 3, 4]);
    expect(other).toEqual([]);
  });

  it('closes its listeners when it closes, and at once those that come later', async () => {
    bus = createInProcessBus();
    hub = createChangeHub({ now: () => now });
    await hub.attach(bus);
    let closed = 0;
    const stop = hub.listen(
      'a',
      () => undefined,
      () => closed++,
    );
    hub.listen(
      'a',
      () => undefined,
      () => closed++,
    );
    stop();
    await hub.close();
    expect(closed).toBe(1);
    hub.listen(
      'a',
      () => undefined,
      () => closed++,
    );
    expect(closed).toBe(2);
  });
});
