import { describe, expect, it } from 'vitest';
import { events } from './change-events.test-fixture.ts';
import { createInProcessBus } from './in-process-bus.ts';

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('in-process bus (what the contract suite does not cover)', () => {
  it('holds at most maxHeld events a partition: a late group starts at the oldest held', async () => {
    const bus = createInProcessBus({ partitions: 1, maxHeld: 10 });
    await bus.publish(events('p', 1, 30));
    expect(await bus.lag('late')).toBe(10);
    const seen: number[] = [];
    await bus.subscribe({ group: 'late', handle: async (batch) => void seen.push(...batch.map((e) => e.seq)) });
    await settle();
    expect(seen).toEqual(events('p', 21, 30).map((e) => e.seq));
    expect(await bus.lag('late')).toBe(0);
    await bus.close();
  });

  it('drops what every group has handled, and keeps what a stopped group has not', async () => {
    const bus = createInProcessBus({ partitions: 1 });
    const fast = await bus.subscribe({ group: 'fast', handle: async () => undefined });
    const slow = await bus.subscribe({ group: 'slow', handle: async () => undefined });
    await bus.publish(events('p', 1, 5));
    await settle();
    await slow.stop();
    await bus.publish(events('p', 6, 8));
    await settle();
    expect(await bus.lag('fast')).toBe(0);
    expect(await bus.lag('slow')).toBe(3);
    const resumed: number[] = [];
    await bus.subscribe({ group: 'slow', handle: async (batch) => void resumed.push(...batch.map((e) => e.seq)) });
    await settle();
    expect(resumed).toEqual([6, 7, 8]);
    await fast.stop();
    await bus.close();
  });

  it('refuses a publish that mixes projects, and any use once closed', async () => {
    const bus = createInProcessBus();
    await expect(bus.publish([...events('a', 1, 1), ...events('b', 1, 1)])).rejects.toThrow(/one project/);
    await bus.close();
    await expect(bus.publish(events('a', 1, 1))).rejects.toThrow(/closed/);
    await expect(bus.subscribe({ group: 'g', handle: async () => undefined })).rejects.toThrow(/closed/);
  });
});
