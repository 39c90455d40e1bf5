import { describe, expect, it } from 'vitest';
import { ApiError } from './client.ts';
import { retryDelay, shouldRetry } from './retry.ts';

describe('read retries', () => {
  const limited = new ApiError(429, { message: 'API rate limit exceeded.' });
  it('retries a rate-limited read past the one-second window, a few times', () => {
    expect([0, 1, 2, 3, 4].map((n) => shouldRetry(n, limited))).toEqual([true, true, true, true, false]);
    expect(retryDelay(0, limited)).toBeGreaterThan(1_000);
  });
  it('does not retry an answer such as 404 or 403, and retries a server or network failure once', () => {
    expect(shouldRetry(0, new ApiError(404, { message: 'Not found' }))).toBe(false);
    expect(shouldRetry(0, new ApiError(403, { message: 'No' }))).toBe(false);
    expect(shouldRetry(0, new ApiError(503, { message: 'Busy' }))).toBe(true);
    expect(shouldRetry(1, new ApiError(503, { message: 'Busy' }))).toBe(false);
    expect(shouldRetry(0, new TypeError('Failed to fetch'))).toBe(true);
  });
});
