import type { WebhookHealth } from '@lectern/core';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/** Waits after the 1st, 2nd, … failed attempt (SPEC 6.5); after the last, every hour. */
export const retryDelaysMs: readonly number[] = [1, 2, 4, 8, 16, 32, 60].map((m) => m * minute);
/** How long a notification is retried before it is removed from the queue (SPEC 6.5, 8). */
export const retentionMs = 3 * day;
/** How long a webhook may fail with nothing accepted before it is dead (SPEC 3.1, 8). */
export const deadAfterMs = 7 * day;

/**
 * When to try a notification again after its `failedAttempts`-th failure, or null when that
 * moment falls after the retention measured from its first attempt: the notification is removed.
 */
export function nextAttemptAt(options: { failedAttempts: number; firstAttemptAt: Date; now: Date }): Date | null {
  const delay = retryDelaysMs[options.failedAttempts - 1] ?? hour;
  const next = new Date(options.now.getTime() + delay);
  return next.getTime() - options.firstAttemptAt.getTime() > retentionMs ? null : next;
}

/** A webhook's health columns as the worker moves them. */
export interface HealthState {
  readonly health: WebhookHealth;
  readonly failingSince: Date | null;
  readonly lastAcceptedAt: Date | null;
}

/**
 * Health after one delivery attempt (SPEC 3.1): an accepted attempt makes the webhook working; a
 * failed one makes it failing, and dead once it has failed for 7 days with nothing accepted.
 */
export function healthAfterAttempt(state: HealthState, attempt: { isAccepted: boolean; at: Date }): HealthState {
  if (attempt.isAccepted) return { health: 'working', failingSince: null, lastAcceptedAt: attempt.at };
  const failingSince = state.failingSince ?? attempt.at;
  const isDead = attempt.at.getTime() - failingSince.getTime() >= deadAfterMs;
  return { health: isDead ? 'dead' : 'failing', failingSince, lastAcceptedAt: state.lastAcceptedAt };
}
