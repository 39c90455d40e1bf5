import type { CoreDeps } from '../../deps.ts';
import type { StoredElementValue } from '../variants/variant-record.ts';
import { applyChain } from './rebuild.ts';
import type { StoredVersion, VariantRef } from './version-record.ts';

/** How long versions are kept; null: that rule is off (both null: everything is kept). */
export interface HistoryRetention {
  readonly keepDays: number | null;
  readonly keepVersions: number | null;
}

const dayMs = 86_400_000;

/** Whether the retention removes anything at all. */
export function isRetentionOn(r: HistoryRetention): boolean {
  return (r.keepDays !== null && r.keepDays > 0) || (r.keepVersions !== null && r.keepVersions > 0);
}

/**
 * Which versions of one variant (oldest first) the retention removes: those older than `keepDays`
 * or beyond the newest `keepVersions`, but never the newest version nor the published one.
 */
export function versionsToRemove(versions: readonly StoredVersion[], r: HistoryRetention, now: Date): Set<string> {
  const newest = versions.at(-1);
  if (!newest) return new Set();
  const cutoff = r.keepDays ? now.getTime() - r.keepDays * dayMs : null;
  const keepFrom = r.keepVersions ? versions.length - r.keepVersions : 0;
  const removed = new Set<string>();
  versions.forEach((v, i) => {
    if (v === newest || v.id === newest.publishedVersionId) return;
    if (i < keepFrom || (cutoff !== null && v.createdAt.getTime() < cutoff)) removed.add(v.id);
  });
  return removed;
}

/**
 * Applies the retention to one variant in one transaction (its row locked, so no save interleaves):
 * removes the versions and stores as a snapshot every kept version whose delta chain lost a link.
 */
async function pruneVariant(deps: CoreDeps, ref: VariantRef, r: HistoryRetention): Promise<number> {
  return deps.store.transaction(async (tx) => {
    await tx.variants.find(ref.projectId, ref.itemId, ref.languageId, { isForUpdate: true });
    const latest = await tx.history.latest(ref);
    if (!latest) return 0;
    const versions = await tx.history.range(ref, 1, latest.seq);
    const removed = versionsToRemove(versions, r, deps.clock.now());
    if (removed.size === 0) return 0;
    let chain: StoredVersion[] = [];
    let previousKept: StoredVersion | null = null;
    let baseSeq = 0;
    for (const v of versions) {
      chain = v.isSnapshot ? [v] : [...chain, v];
      if (removed.has(v.id)) continue;
      const isLinked = v.isSnapshot || (previousKept !== null && previousKept.seq === v.seq - 1);
      if (!isLinked) {
        const elements: Record<string, StoredElementValue | null> = { ...applyChain(chain) };
        await tx.history.rewrite(ref, v.id, { baseSeq: v.seq, isSnapshot: true, elements });
        baseSeq = v.seq;
      } else if (v.isSnapshot) baseSeq = v.seq;
      else if (v.baseSeq !== baseSeq) await tx.history.rewrite(ref, v.id, { baseSeq, isSnapshot: false });
      previousKept = v;
    }
    return tx.history.delete(ref, [...removed]);
  });
}

/**
 * One pass of the retention over up to `limit` variants (called by the scheduler's timer; any
 * number of processes may run it). Returns how many versions were removed.
 */
export async function pruneHistory(
  deps: CoreDeps,
  retention: HistoryRetention,
  options: { limit?: number } = {},
): Promise<number> {
  if (!isRetentionOn(retention)) return 0;
  const before = retention.keepDays ? new Date(deps.clock.now().getTime() - retention.keepDays * dayMs) : null;
  const refs = await deps.store.transaction((tx) =>
    tx.history.variantsToPrune({ before, keepVersions: retention.keepVersions || null, limit: options.limit ?? 100 }),
  );
  let removed = 0;
  for (const ref of refs) removed += await pruneVariant(deps, ref, retention);
  return removed;
}
