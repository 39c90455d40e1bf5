import { describe, expect, it } from 'vitest';
import { createCommitLog } from './commit-log.ts';

describe('the commit log the sweep reads', () => {
  it('answers the highest watermark committed at or before a time, per project', () => {
    const log = createCommitLog();
    log.record('p', 1_000, 5);
    log.record('p', 2_000, 9);
    log.record('q', 1_500, 3);
    expect(log.committedBefore('p', 999)).toBeNull();
    expect(log.committedBefore('p', 1_000)).toBe(5);
    expect(log.committedBefore('p', 1_999)).toBe(5);
    expect(log.committedBefore('p', 5_000)).toBe(9);
    expect(log.committedBefore('q', 5_000)).toBe(3);
    expect(log.committedBefore('r', 5_000)).toBeNull();
  });

  it('forgets a project after a rebuild or a drop (its watermark may start again lower)', () => {
    const log = createCommitLog();
    log.record('p', 1_000, 50);
    log.forget('p');
    log.record('p', 2_000, 7);
    expect(log.committedBefore('p', 1_500)).toBeNull();
    expect(log.committedBefore('p', 2_500)).toBe(7);
  });

  it('stays bounded under many commits, answering no later watermark than was due', () => {
    const log = createCommitLog();
    for (let i = 1; i <= 5_000; i += 1) log.record('p', i, i);
    const due = log.committedBefore('p', 4_000);
    expect(due).not.toBeNull();
    expect(due!).toBeLessThanOrEqual(4_000);
    expect(log.committedBefore('p', 5_000)).toBe(5_000);
  });
});
