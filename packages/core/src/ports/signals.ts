/**
 * Notifications of committed changes, across processes (DESIGN read path 5): PostgreSQL
 * LISTEN/NOTIFY in both shapes (PGlite delivers them within its one process). A signal is sent in
 * the transaction of the change it announces, so it arrives after that change is visible and never
 * for a change that rolled back. Signals can be lost (a dropped connection); `onReset` then tells
 * the listener to distrust what it learnt from them and read again.
 */

/**
 * - `committed`: a project's outbox advanced; payload `<project id>:<sequence>`.
 * - `indexed`: a project's delivery index watermark advanced; payload `<project id>:<sequence>`.
 * - `access`: a project's access settings or one of its API keys changed; payload `<project id>`.
 */
export type SignalTopic = 'committed' | 'indexed' | 'access';

export interface Signals {
  /**
   * Calls `listener` with the payload of every signal of `topic` from now on, and `onReset` after
   * the adapter may have missed some (reconnected). Resolves once listening; the result stops it.
   */
  subscribe(options: {
    topic: SignalTopic;
    listener: (payload: string) => void;
    onReset?: () => void;
  }): Promise<() => Promise<void>>;
}

/** `<project id>:<sequence>` of `committed` and `indexed` signals; null when malformed. */
export function parseSeqSignal(payload: string): { projectId: string; seq: number } | null {
  const colon = payload.lastIndexOf(':');
  const seq = Number(payload.slice(colon + 1));
  if (colon <= 0 || !Number.isSafeInteger(seq) || seq < 0) return null;
  return { projectId: payload.slice(0, colon), seq };
}
