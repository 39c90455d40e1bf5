import { randomUUID } from 'node:crypto';
import type { Clock } from '../ports/clock.ts';
import type { EventBus } from '../ports/event-bus.ts';
import type { Store } from '../ports/store.ts';
import { createSerialQueue } from '../serial-queue.ts';

export interface OutboxRelayOptions {
  readonly store: Store;
  readonly bus: EventBus;
  readonly clock: Clock;
  /** This relay's name in leases; unique per process. Default: a random id. */
  readonly owner?: string;
  /** Events per publish. Default 500. */
  readonly batchSize?: number;
  /** Poll interval of a started relay (it also runs at once on `wake`). Default 250 ms. */
  readonly intervalMs?: number;
  /** How long a claimed project stays this relay's without progress. Default 30 s. */
  readonly leaseMs?: number;
  /** Called after each publish the bus acknowledged, with the number of events. */
  readonly onPublished?: (count: number) => void;
  readonly onError?: (error: unknown) => void;
}

export interface OutboxRelay {
  /** Relays what is committed now; resolves when nothing this relay may claim is left. */
  drain(): Promise<void>;
  /** Polls every `intervalMs` until `stop`. */
  start(): void;
  /** Runs a pass soon, without waiting for the next poll (after a local commit). */
  wake(): void;
  /** Stops polling; resolves when the pass under way has finished. */
  stop(): Promise<void>;
}

/** Projects leased per round. */
const claimLimit = 100;

/**
 * The outbox relay (DESIGN write path step 3). Each pass leases the projects whose committed
 * events are ahead of what was relayed, then per project reads events after the relayed sequence,
 * publishes them in order, and records the new relayed sequence only after the bus acknowledged
 * them. A relay that dies between a publish and its record leaves a lease that expires; the next
 * relay publishes those events again (at-least-once, never a gap and never out of order, because
 * every publish starts right after a recorded sequence). Any number of relays may share a store.
 */
export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { store, bus, clock } = options;
  const owner = options.owner ?? randomUUID();
  const batchSize = options.batchSize ?? 500;
  const intervalMs = options.intervalMs ?? 250;
  const leaseMs = options.leaseMs ?? 30_000;
  const passes = createSerialQueue();
  let timer: NodeJS.Timeout | null = null;
  let isStarted = false;
  let isWoken = false;

  const leaseEnd = () => new Date(clock.now().getTime() + leaseMs);

  const relayProject = async (projectId: string, relayedSeq: number) => {
    let seq = relayedSeq;
    try {
      for (;;) {
        const events = await store.transaction((tx) =>
          tx.outbox.readAfter({ projectId, afterSeq: seq, limit: batchSize }),
        );
        const last = events.at(-1);
        if (!last) return;
        await bus.publish(events);
        options.onPublished?.(events.length);
        const isHeld = await store.transaction((tx) =>
          tx.outboxRelay.advance({ projectId, owner, seq: last.seq, until: leaseEnd() }),
        );
        if (!isHeld) return;
        seq = last.seq;
      }
    } finally {
      await store.transaction((tx) => tx.outboxRelay.release({ projectId, owner }));
    }
  };

  const pass = async () => {
    for (;;) {
      const now = clock.now();
      const claims = await store.transaction((tx) =>
        tx.outboxRelay.claim({ owner, now, until: new Date(now.getTime() + leaseMs), limit: claimLimit }),
      );
      for (const claim of claims) await relayProject(claim.projectId, claim.relayedSeq);
      if (claims.length < claimLimit) return;
    }
  };

  /** Passes run one at a time; a wake during a pass runs one more right after it. */
  const exclusive = () => passes.run(pass);

  const schedule = (delay: number) => {
    if (!isStarted) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      isWoken = false;
      exclusive()
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => schedule(isWoken ? 0 : intervalMs));
    }, delay);
  };

  return {
    drain: exclusive,
    start() {
      if (isStarted) return;
      isStarted = true;
      schedule(0);
    },
    wake() {
      isWoken = true;
      if (timer) schedule(0);
    },
    async stop() {
      isStarted = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await passes.idle();
    },
  };
}
