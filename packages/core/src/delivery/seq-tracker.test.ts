import { describe, expect, it } from 'vitest';
import { createSeqTracker } from './seq-tracker.ts';

function source(initial: number) {
  const state = { seq: initial, reads: 0 };
  return {
    state,
    read: async () => {
      state.reads += 1;
      return state.seq;
    },
  };
}

describe('SeqTracker', () => {
  it('reads a project once, then answers from memory until it is older than maxStalenessMs', async () => {
    let now = 0;
    const s = source(5);
    const tracker = createSeqTracker({ read: s.read, maxStalenessMs: 100, now: () => now });
    expect(await tracker.get('p')).toBe(5);
    s.state.seq = 9;
    for (let i = 0; i < 10; i += 1) expect(await tracker.get('p')).toBe(5);
    expect(s.state.reads).toBe(1);
    now = 150;
    // Stale: answered at once with the held value, re-read behind.
    expect(await tracker.get('p')).toBe(5);
    await new Promise((r) => setImmediate(r));
    expect(await tracker.get('p')).toBe(9);
    expect(s.state.reads).toBe(2);
  });

  it('advances by signals, never goes back, and re-reads after invalidate', async () => {
    const s = source(3);
    const tracker = createSeqTracker({ read: s.read, maxStalenessMs: 60_000 });
    expect(await tracker.get('p')).toBe(3);
    tracker.advance('p', 8);
    tracker.advance('p', 6);
    expect(await tracker.get('p')).toBe(8);
    tracker.advance('unknown', 4);
    expect(await tracker.get('unknown')).toBe(3);
    s.state.seq = 12;
    tracker.invalidate();
    expect(await tracker.get('p')).toBe(12);
  });

  it('held: the sequence with when a read of the source last started, kept through signals', async () => {
    let wall = 1_000;
    const s = source(4);
    const tracker = createSeqTracker({ read: s.read, maxStalenessMs: 60_000, wallClock: () => wall });
    expect(tracker.held('p')).toBeUndefined();
    await tracker.get('p');
    expect(tracker.held('p')).toEqual({ seq: 4, confirmedAt: 1_000 });
    wall = 5_000;
    // A signal raises the sequence, not the time: only a read of the source confirms it.
    tracker.advance('p', 7);
    expect(tracker.held('p')).toEqual({ seq: 7, confirmedAt: 1_000 });
    s.state.seq = 9;
    await tracker.refresh('p');
    expect(tracker.held('p')).toEqual({ seq: 9, confirmedAt: 5_000 });
    // A read that started before a later one finished never moves the time back.
    wall = 2_000;
    await tracker.refresh('p');
    expect(tracker.held('p')?.confirmedAt).toBe(5_000);
  });

  it('with maxStalenessMs 0 reads on every get', async () => {
    const s = source(1);
    const tracker = createSeqTracker({ read: s.read, maxStalenessMs: 0 });
    await tracker.get('p');
    await tracker.get('p');
    expect(s.state.reads).toBe(2);
  });

  it('waitFor wakes on a signal, polls the source, and gives up at the timeout', async () => {
    const s = source(1);
    const tracker = createSeqTracker({ read: s.read, maxStalenessMs: 60_000, pollMs: 10_000 });
    setTimeout(() => tracker.advance('p', 5), 20);
    const started = performance.now();
    expect(await tracker.waitFor({ projectId: 'p', target: 5, timeoutMs: 5_000 })).toBe(5);
    expect(performance.now() - started).toBeLessThan(2_000);

    const polled = createSeqTracker({ read: s.read, maxStalenessMs: 60_000, pollMs: 10 });
    setTimeout(() => (s.state.seq = 7), 30);
    expect(await polled.waitFor({ projectId: 'p', target: 7, timeoutMs: 5_000 })).toBe(7);

    expect(await polled.waitFor({ projectId: 'p', target: 99, timeoutMs: 60 })).toBe(7);
  });
});
