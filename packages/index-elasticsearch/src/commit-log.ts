/**
 * The watermarks this process committed, per project, with when: what tells the sweep which
 * superseded versions no reader can need any more (search-index.ts, `sweep`).
 */
export interface CommitLog {
  /** The project's watermark moved to `watermark` at `at` (ms, the index's clock). */
  record(projectId: string, at: number, watermark: number): void;
  /**
   * The highest watermark recorded at or before `time`, or null when none was. Entries older than
   * the one returned are forgotten (it answers every later time at least as well).
   */
  committedBefore(projectId: string, time: number): number | null;
  /** Forgets the project (a rebuild or a drop: its watermark may start again lower). */
  forget(projectId: string): void;
}

/** Entries kept per project; past it the second oldest is dropped (a later sweep, never a wrong one). */
const maxEntries = 1_024;

export function createCommitLog(): CommitLog {
  const log = new Map<string, { at: number; watermark: number }[]>();
  return {
    record(projectId, at, watermark) {
      let entries = log.get(projectId);
      if (entries === undefined) log.set(projectId, (entries = []));
      entries.push({ at, watermark });
      if (entries.length > maxEntries) entries.splice(1, 1);
    },
    committedBefore(projectId, time) {
      const entries = log.get(projectId) ?? [];
      let last = -1;
      for (let i = 0; i < entries.length && entries[i]!.at <= time; i += 1) last = i;
      if (last < 0) return null;
      entries.splice(0, last);
      return entries[0]!.watermark;
    },
    forget(projectId) {
      log.delete(projectId);
    },
  };
}
