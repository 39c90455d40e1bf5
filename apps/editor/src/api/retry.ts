import { ApiError } from './client.ts';

/*
 * When a read is tried again. The server counts a signed-in person's requests like a management
 * key's (10 a second, SPEC 8), and one screen opens with a burst of reads (an item: its type,
 * snippets, languages, variants, linked items, assets, workflow…), so a 429 is expected now and
 * then and is retried after its window; other refusals (4xx) are answers, not accidents.
 */

/** TanStack Query's `retry`: 429 up to 4 times, a network or server error once, other 4xx never. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError) {
    if (error.status === 429) return failureCount < 4;
    if (error.status < 500) return false;
  }
  return failureCount < 1;
}

/** TanStack Query's `retryDelay`: past the rate limit's one-second window for a 429, else 1 s doubling. */
export function retryDelay(failureCount: number, error: unknown): number {
  if (error instanceof ApiError && error.status === 429) return 1_100 + failureCount * 400;
  return Math.min(1_000 * 2 ** failureCount, 8_000);
}
