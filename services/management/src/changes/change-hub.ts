import { randomUUID } from 'node:crypto';
import type { ChangeEvent, EventBus, EventSubscription } from '@lectern/core';

/** Receives one project's events in sequence order; must return at once (it only queues). */
export type ChangeListener = (events: readonly ChangeEvent[]) => void;

/**
 * The change events of every project, fanned out in memory to this process's live listeners (the
 * app's server-sent event streams). One consumer group per process, so every replica sees every
 * event (Kafka in the cluster, the in-process bus embedded) whichever replica wrote it.
 */
export interface ChangeHub {
  /** Joins the bus; events before this call are not delivered. Call once. */
  attach(bus: EventBus): Promise<void>;
  /**
   * Listens to one project's events from now on. `onClose` is called when the hub closes (server
   * shutdown). Returns the function that stops listening.
   */
  listen(projectId: string, listener: ChangeListener, onClose: () => void): () => void;
  /** Leaves the bus and closes every listener; later `listen` calls close at once. */
  close(): Promise<void>;
}

interface Entry {
  readonly listener: ChangeListener;
  readonly onClose: () => void;
}

/**
 * A fresh consumer group per process (name prefix `lectern-app-changes-`): a group that has never
 * committed starts at the oldest event the bus holds, so events that occurred more than
 * `replaySlackMs` before the hub joined are skipped rather than replayed to new listeners, and an
 * event at or below the last sequence passed on for its project (an at-least-once repeat) is
 * dropped.
 */
export function createChangeHub(options: { now?: () => Date; replaySlackMs?: number } = {}): ChangeHub {
  const now = options.now ?? (() => new Date());
  const slack = options.replaySlackMs ?? 5_000;
  const byProject = new Map<string, Set<Entry>>();
  const lastSeq = new Map<string, number>();
  let subscription: EventSubscription | null = null;
  let isClosed = false;
  let since = Number.POSITIVE_INFINITY;

  const deliver = (events: readonly ChangeEvent[]) => {
    const first = events[0];
    if (!first) return;
    const seen = lastSeq.get(first.projectId) ?? 0;
    const fresh = events.filter((e) => e.seq > seen && e.occurredAt.getTime() >= since);
    const last = events.at(-1);
    if (last) lastSeq.set(first.projectId, Math.max(seen, last.seq));
    if (fresh.length === 0) return;
    for (const entry of byProject.get(first.projectId) ?? []) entry.listener(fresh);
  };

  return {
    async attach(bus) {
      if (subscription || isClosed) return;
      since = now().getTime() - slack;
      subscription = await bus.subscribe({
        group: `lectern-app-changes-${randomUUID()}`,
        handle: (events) => {
          deliver(events);
          return Promise.resolve();
        },
      });
    },
    listen(projectId, listener, onClose) {
      const entry: Entry = { listener, onClose };
      if (isClosed) {
        onClose();
        return () => undefined;
      }
      let entries = byProject.get(projectId);
      if (!entries) byProject.set(projectId, (entries = new Set()));
      entries.add(entry);
      return () => {
        entries.delete(entry);
        if (entries.size === 0) byProject.delete(projectId);
      };
    },
    async close() {
      if (isClosed) return;
      isClosed = true;
      const entries = [...byProject.values()].flatMap((s) => [...s]);
      byProject.clear();
      for (const entry of entries) entry.onClose();
      await subscription?.stop();
      subscription = null;
    },
  };
}
