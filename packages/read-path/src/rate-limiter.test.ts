import { describe, expect, it } from 'vitest';
import { RateLimiter, memoryLimiter } from './rate-limiter.ts';

describe('the in-memory uncached rate limiter', () => {
  it('allows max requests per window, then says how many seconds remain, per key', () => {
    let now = 10_250;
    const limiter = new RateLimiter([{ max: 2, seconds: 1 }], () => now);
    expect(limiter.take('p')).toBeNull();
    expect(limiter.take('p')).toBeNull();
    expect(limiter.take('p')).toBe(0.75);
    expect(limiter.take('q')).toBeNull();
    now = 11_000; // the next window
    expect(limiter.take('p')).toBeNull();
  });

  it('refuses while any window is full, until that window ends', () => {
    let now = 0;
    const limiter = new RateLimiter(
      [
        { max: 5, seconds: 1 },
        { max: 3, seconds: 60 },
      ],
      () => now,
    );
    for (let i = 0; i < 3; i += 1) expect(limiter.take('p')).toBeNull();
    expect(limiter.take('p')).toBe(60);
    now = 30_000;
    expect(limiter.take('p')).toBe(30);
    now = 60_000;
    for (let i = 0; i < 3; i += 1) expect(limiter.take('p')).toBeNull();
  });

  it('never limits without windows', async () => {
    const limiter = memoryLimiter([]);
    for (let i = 0; i < 1_000; i += 1) expect(await limiter.take('p')).toBeNull();
  });
});
