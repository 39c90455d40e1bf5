import { describe, expect, it } from 'vitest';
import { LoopProbe } from './loop-probe.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Holds the loop `ms` milliseconds, computing (busy) or blocked without CPU (as a descheduled thread is). */
function hold(ms: number, how: 'busy' | 'blocked'): void {
  if (how === 'blocked') {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    return;
  }
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('LoopProbe', () => {
  it('measures a held loop and the CPU spent holding it', async () => {
    const probe = new LoopProbe();
    probe.start();
    await tick();
    hold(150, 'busy');
    await tick();
    const held = probe.stop();
    probe.close();
    expect(held.loopMs).toBeGreaterThan(130);
    expect(held.cpuMs).toBeGreaterThan(120);
  });

  it('tells a gap without CPU (a thread waiting for a core) from work, however much work the flight held', async () => {
    const probe = new LoopProbe();
    probe.start();
    // 150 ms of small steps in flight: CPU over the whole flight, none of it one long hold.
    for (let i = 0; i < 30; i++) {
      hold(5, 'busy');
      await new Promise((resolve) => setImmediate(resolve));
    }
    hold(150, 'blocked');
    await tick();
    const held = probe.stop();
    probe.close();
    expect(held.loopMs).toBeGreaterThan(130);
    expect(held.cpuMs).toBeLessThan(40);
  });
});
