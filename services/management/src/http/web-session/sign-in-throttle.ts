import ipaddr from 'ipaddr.js';

/*
 * Failed console sign-ins, counted per key (the client's address, and the value presented), in
 * this process's memory. `maxFailures` failures within `windowMs` lock the key for `baseLockMs`;
 * each further lock of the same key doubles (up to `maxLockMs`) until the key has been quiet for
 * `maxLockMs`. While locked, a sign-in is refused before its token is looked at, so guessing
 * cannot go on at full speed, the right guess included. A success clears its client's record.
 */

export interface SignInThrottleOptions {
  /** Failures allowed per key within `windowMs` before a lock (default 5). */
  readonly maxFailures?: number;
  /** Window of counted failures, ms (default 60,000). */
  readonly windowMs?: number;
  /** First lock, ms (default 60,000); each further one doubles. */
  readonly baseLockMs?: number;
  /** Longest lock, and the quiet time after which a key is forgotten, ms (default 3,600,000). */
  readonly maxLockMs?: number;
  /** Keys remembered at most (default 10,000); the least recently failed go first. */
  readonly maxKeys?: number;
  readonly now?: () => number;
}

interface Entry {
  failures: number;
  windowStart: number;
  lockedUntil: number;
  /** Locks so far: the next one lasts baseLockMs × 2^locks. */
  locks: number;
  lastFailure: number;
}

export interface SignInThrottle {
  /** Seconds until any of these keys may try again, or 0 when none is locked. */
  retryAfterSeconds(keys: readonly string[]): number;
  /** Counts a failed sign-in against each key. */
  fail(keys: readonly string[]): void;
  /** Forgets the keys' failures (a successful sign-in from that client). */
  succeed(keys: readonly string[]): void;
}

/**
 * The throttle key of a client address: the address itself for IPv4 (also IPv4-mapped IPv6), the
 * /64 prefix for IPv6, since one subscriber commonly holds a whole /64.
 */
export function clientKey(address: string | undefined): string {
  if (address === undefined || !ipaddr.isValid(address)) return `client:${address ?? 'unknown'}`;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return `client:${parsed.toString()}`;
  return `client:${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

export function createSignInThrottle(options: SignInThrottleOptions = {}): SignInThrottle {
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = options.windowMs ?? 60_000;
  const baseLockMs = options.baseLockMs ?? 60_000;
  const maxLockMs = options.maxLockMs ?? 3_600_000;
  const maxKeys = options.maxKeys ?? 10_000;
  const now = options.now ?? Date.now;
  // Insertion order is failure order (an entry is re-inserted on each failure): the first is the stalest.
  const entries = new Map<string, Entry>();

  const live = (key: string, at: number): Entry | undefined => {
    const entry = entries.get(key);
    if (entry !== undefined && at - entry.lastFailure > maxLockMs && entry.lockedUntil <= at) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  return {
    retryAfterSeconds(keys) {
      const at = now();
      let until = 0;
      for (const key of keys) until = Math.max(until, live(key, at)?.lockedUntil ?? 0);
      return until > at ? Math.ceil((until - at) / 1000) : 0;
    },
    fail(keys) {
      const at = now();
      for (const key of keys) {
        const entry = live(key, at) ?? { failures: 0, windowStart: at, lockedUntil: 0, locks: 0, lastFailure: at };
        if (at - entry.windowStart > windowMs) {
          entry.failures = 0;
          entry.windowStart = at;
        }
        entry.failures += 1;
        entry.lastFailure = at;
        if (entry.failures >= maxFailures) {
          entry.lockedUntil = at + Math.min(maxLockMs, baseLockMs * 2 ** entry.locks);
          entry.locks += 1;
          entry.failures = 0;
          entry.windowStart = at;
        }
        entries.delete(key);
        entries.set(key, entry);
        // Bounded memory: the stalest records go first (a flood of addresses forgets old ones, never grows).
        while (entries.size > maxKeys) {
          const oldest = entries.keys().next().value;
          if (oldest === undefined) break;
          entries.delete(oldest);
        }
      }
    },
    succeed(keys) {
      for (const key of keys) entries.delete(key);
    },
  };
}
