import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A per-project sequence held in memory (an index watermark, or the latest committed outbox
 * sequence): read from its source once, advanced by signals, and re-read in the background once it
 * is older than `maxStalenessMs`, so a lost signal delays what a reader sees by at most that long.
 * It never goes back.
 */
export interface SeqTracker {
  /** The known sequence: no round trip once the project was read (a stale one refreshes behind). */
  get(projectId: string): Promise<number>;
  /**
   * `get` without a promise, for a caller that must answer synchronously: the known sequence
   * (a stale one refreshes behind, as in `get`), or undefined when the project was never read.
   */
  peek(projectId: string): number | undefined;
  /**
   * The known sequence with the wall-clock time (ms since the epoch, `wallClock`) at which a read
   * of the source last started that returned at most it: the source was never above `seq` then,
   * whatever signals raised it since. Undefined when the project was never read. Refreshes nothing.
   */
  held(projectId: string): { readonly seq: number; readonly confirmedAt: number } | undefined;
  /** Reads the sequence from the source now (and keeps it). */
  refresh(projectId: string): Promise<number>;
  /** A signal: the project reached `seq` (ignored when not ahead). */
  advance(projectId: string, seq: number): void;
  /** Signals may have been missed: every known sequence is re-read on its next use. */
  invalidate(): void;
  /**
   * Resolves with the sequence once it is at least `target`, or with the last one read when
   * `timeoutMs` ran out. Woken by signals; re-reads the source every `pollMs` meanwhile.
   */
  waitFor(options: { projectId: string; target: number; timeoutMs: number }): Promise<number>;
}

export interface SeqTrackerOptions {
  readonly read: (projectId: string) => Promise<number>;
  /** How old a sequence may get before a read re-checks it in the background (ms; 0: every read waits for the source). */
  readonly maxStalenessMs: number;
  /** Re-read period while `waitFor` waits (ms). Default 50. */
  readonly pollMs?: number;
  /** Projects kept at most (default 100,000); the least recently read go first. */
  readonly maxProjects?: number;
  readonly now?: () => number;
  /** The clock of `held`'s `confirmedAt` (ms since the epoch). Default `Date.now`. */
  readonly wallClock?: () => number;
}

interface Entry {
  seq: number;
  checkedAt: number;
  confirmedAt: number;
  refreshing: Promise<number> | null;
  waiters: Set<() => void>;
}

export function createSeqTracker(options: SeqTrackerOptions): SeqTracker {
  const now = options.now ?? (() => performance.now());
  const wallClock = options.wallClock ?? Date.now;
  const pollMs = options.pollMs ?? 50;
  const maxProjects = options.maxProjects ?? 100_000;
  const entries = new Map<string, Entry>();

  const entryOf = (projectId: string): Entry => {
    let entry = entries.get(projectId);
    if (entry === undefined) {
      entry = {
        seq: 0,
        checkedAt: Number.NEGATIVE_INFINITY,
        confirmedAt: Number.NEGATIVE_INFINITY,
        refreshing: null,
        waiters: new Set(),
      };
      entries.set(projectId, entry);
      if (entries.size > maxProjects) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined && oldest !== projectId) entries.delete(oldest);
      }
    }
    return entry;
  };

  const raise = (entry: Entry, seq: number) => {
    if (seq <= entry.seq) return;
    entry.seq = seq;
    for (const wake of entry.waiters) wake();
  };

  const refresh = (projectId: string): Promise<number> => {
    const entry = entryOf(projectId);
    entry.refreshing ??= (async () => {
      const startedAt = now();
      const startedWall = wallClock();
      try {
        raise(entry, await options.read(projectId));
        entry.checkedAt = startedAt;
        entry.confirmedAt = Math.max(entry.confirmedAt, startedWall);
        return entry.seq;
      } finally {
        entry.refreshing = null;
      }
    })();
    return entry.refreshing;
  };

  return {
    get(projectId) {
      if (options.maxStalenessMs <= 0) return refresh(projectId);
      const entry = entries.get(projectId);
      if (entry === undefined || entry.checkedAt === Number.NEGATIVE_INFINITY) return refresh(projectId);
      if (now() - entry.checkedAt > options.maxStalenessMs && entry.refreshing === null) {
        refresh(projectId).catch(() => undefined);
      }
      return Promise.resolve(entry.seq);
    },
    peek(projectId) {
      if (options.maxStalenessMs <= 0) return undefined;
      const entry = entries.get(projectId);
      if (entry === undefined || entry.checkedAt === Number.NEGATIVE_INFINITY) return undefined;
      if (now() - entry.checkedAt > options.maxStalenessMs && entry.refreshing === null) {
        refresh(projectId).catch(() => undefined);
      }
      return entry.seq;
    },
    held(projectId) {
      const entry = entries.get(projectId);
      if (entry === undefined || entry.confirmedAt === Number.NEGATIVE_INFINITY) return undefined;
      return { seq: entry.seq, confirmedAt: entry.confirmedAt };
    },
    refresh,
    advance(projectId, seq) {
      const entry = entries.get(projectId);
      // Unknown projects are read when first asked for; a signal alone does not make them known.
      if (entry !== undefined) raise(entry, seq);
    },
    invalidate() {
      for (const entry of entries.values()) entry.checkedAt = Number.NEGATIVE_INFINITY;
    },
    async waitFor({ projectId, target, timeoutMs }) {
      const deadline = now() + timeoutMs;
      let seq = await refresh(projectId);
      const entry = entryOf(projectId);
      while (seq < target) {
        const left = deadline - now();
        if (left <= 0) break;
        const controller = new AbortController();
        let wake: () => void = () => undefined;
        const signalled = new Promise<'signal'>((resolve) => {
          wake = () => resolve('signal');
          entry.waiters.add(wake);
        });
        const woke = await Promise.race([
          signalled,
          sleep(Math.min(pollMs, left), 'poll' as const, { signal: controller.signal }).catch(() => 'poll' as const),
        ]);
        entry.waiters.delete(wake);
        controller.abort();
        seq = woke === 'signal' ? entry.seq : await refresh(projectId);
      }
      return seq;
    },
  };
}
