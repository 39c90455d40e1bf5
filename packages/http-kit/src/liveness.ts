import { monitorEventLoopDelay } from 'node:perf_hooks';

/** What `/healthz` answers: 200 while the event loop keeps up, 503 with the figure when it lagged. */
export interface LivenessAnswer {
  readonly status: 200 | 503;
  readonly body: { readonly status: 'ok' | 'event loop blocked'; readonly max_event_loop_delay_ms: number };
}

export interface Liveness {
  /** The answer for now: the worst event-loop delay of the current and the previous window. */
  check(): LivenessAnswer;
  /** Forgets the delays so far: called once a process has started (loading and migrations may block for seconds). */
  reset(): void;
  /** Stops measuring (tests; the process-wide one lives as long as the process). */
  stop(): void;
}

/**
 * Liveness from the event loop's own delay (`perf_hooks.monitorEventLoopDelay`, sampled every
 * 20 ms). Each window (10 s by default) starts a fresh histogram and keeps the previous one's
 * maximum, so a stall is reported for one to two windows after the loop comes back. Defaults:
 * a delay over 5 s is a blocked loop. A loop that stays blocked cannot answer at all: the
 * probe then fails by its own timeout; this answer catches the loop that recovers now and then
 * (a run of requests each holding it for seconds).
 */
export function createLiveness(options: { maxDelayMs?: number; windowMs?: number } = {}): Liveness {
  const maxDelayMs = options.maxDelayMs ?? 5000;
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  let previousMaxNs = 0;
  const rotate = setInterval(() => {
    previousMaxNs = histogram.max;
    histogram.reset();
  }, options.windowMs ?? 10_000);
  rotate.unref();
  return {
    check() {
      const worstMs = Math.round(Math.max(previousMaxNs, histogram.max) / 1e6);
      return worstMs > maxDelayMs
        ? { status: 503, body: { status: 'event loop blocked', max_event_loop_delay_ms: worstMs } }
        : { status: 200, body: { status: 'ok', max_event_loop_delay_ms: worstMs } };
    },
    reset() {
      previousMaxNs = 0;
      histogram.reset();
    },
    stop() {
      clearInterval(rotate);
      histogram.disable();
    },
  };
}

let processLiveness: Liveness | null = null;

/** The one liveness of this process, shared by every listener's `/healthz` (started on first use). */
export function livenessOfProcess(): Liveness {
  processLiveness ??= createLiveness();
  return processLiveness;
}
