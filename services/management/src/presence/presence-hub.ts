import { operator, readPresence, type CoreDeps, type PresenceJson } from '@lectern/core';

/*
 * Presence for the editor's streams (issue 31): what the store holds, read once per interval per
 * watched variant in this process, whatever the number of tabs watching it, and passed on when it
 * changed. The store is the truth, so every replica sees heartbeats written through any other.
 */

export interface PresenceKey {
  readonly projectId: string;
  readonly itemId: string;
  readonly languageId: string;
}

export interface PresenceHub {
  /**
   * Calls `listener` with the variant's presence now (once read) and after every change;
   * `onClose` when the hub closes. The result stops listening.
   */
  watch(key: PresenceKey, listener: (presence: PresenceJson) => void, onClose: () => void): () => void;
  /** Stops every poll and closes every listener (at shutdown, before the listener closes). */
  close(): void;
}

interface Watched {
  readonly listeners: Map<symbol, { onChange: (p: PresenceJson) => void; onClose: () => void }>;
  last: { text: string; json: PresenceJson } | null;
  timer: NodeJS.Timeout;
  isPolling: boolean;
}

export function createPresenceHub(core: CoreDeps, options: { intervalMs?: number } = {}): PresenceHub {
  const intervalMs = options.intervalMs ?? 1000;
  const watched = new Map<string, Watched>();
  let isClosed = false;

  const poll = async (key: PresenceKey, w: Watched) => {
    if (w.isPolling) return; // a slow read is not stacked under the next tick
    w.isPolling = true;
    try {
      const json = await readPresence(core, { actor: operator, ...key });
      const text = JSON.stringify({ people: json.people.map(({ seen_at: _s, ...p }) => p), saved: json.last_saved_by });
      if (w.last?.text === text) return;
      w.last = { text, json };
      for (const l of w.listeners.values()) l.onChange(json);
    } catch {
      // The store is unavailable for a moment: the next tick reads again.
    } finally {
      w.isPolling = false;
    }
  };

  return {
    watch(key, onChange, onClose) {
      if (isClosed) {
        onClose();
        return () => undefined;
      }
      const id = `${key.projectId}/${key.itemId}/${key.languageId}`;
      let w = watched.get(id);
      if (!w) {
        const created: Watched = {
          listeners: new Map(),
          last: null,
          isPolling: false,
          timer: setInterval(() => void poll(key, created), intervalMs),
        };
        created.timer.unref();
        watched.set(id, created);
        w = created;
        void poll(key, created);
      } else if (w.last) onChange(w.last.json);
      const token = Symbol('listener');
      w.listeners.set(token, { onChange, onClose });
      const entry = w;
      return () => {
        entry.listeners.delete(token);
        if (entry.listeners.size === 0) {
          clearInterval(entry.timer);
          watched.delete(id);
        }
      };
    },
    close() {
      isClosed = true;
      for (const w of watched.values()) {
        clearInterval(w.timer);
        for (const l of w.listeners.values()) l.onClose();
      }
      watched.clear();
    },
  };
}
