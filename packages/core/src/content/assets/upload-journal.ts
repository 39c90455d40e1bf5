import type { CoreDeps } from '../../deps.ts';
import type { BlobStore } from '../../ports/blob-store.ts';

/*
 * Crash safety of uploads (issue 27, finding 14). An upload enters its blob key in the
 * `pendingUploads` journal before its first byte is stored, and leaves it in the transaction
 * that records the file; a refused upload removes its bytes, then leaves. So at every instant a
 * stored blob has a file row or a journal entry, whatever step a crash interrupts: an entry older
 * than any upload can live marks bytes nobody will record, and the sweep removes them (bytes
 * first, entry second, so a crash during the sweep leaves the entry for the next one).
 */

/** An upload begun longer ago than this is abandoned: far beyond any request's life (Node ends a request after 5 minutes). */
export const abandonedUploadMs = 6 * 60 * 60 * 1000;
/** Each process sweeps at most this often, on the back of an upload. */
const sweepEveryMs = 10 * 60 * 1000;
const sweepBatch = 100;
const lastSweeps = new WeakMap<BlobStore, number>();

/** Removes the bytes of abandoned uploads and their journal entries; returns how many. */
export async function sweepAbandonedUploads(deps: CoreDeps, blobs: BlobStore): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - abandonedUploadMs);
  const abandoned = await deps.store.transaction((tx) => tx.pendingUploads.startedBefore(before, sweepBatch));
  for (const upload of abandoned) {
    await blobs.delete(upload.key);
    await deps.store.transaction((tx) => tx.pendingUploads.end(upload.key));
  }
  return abandoned.length;
}

/**
 * Starts a sweep when this process has not swept for a while; never waits for it or fails the
 * caller (a failed sweep is retried by a later one).
 */
export function sweepAbandonedUploadsNowAndThen(deps: CoreDeps, blobs: BlobStore): void {
  const now = Date.now();
  if (now - (lastSweeps.get(blobs) ?? 0) < sweepEveryMs) return;
  lastSweeps.set(blobs, now);
  sweepAbandonedUploads(deps, blobs).catch(() => lastSweeps.delete(blobs));
}

/** Removes a refused upload's bytes, then its journal entry (kept for the sweep if the bytes could not be removed). */
export async function discardUpload(deps: CoreDeps, blobs: BlobStore, key: string): Promise<void> {
  try {
    await blobs.delete(key);
  } catch {
    return;
  }
  await deps.store.transaction((tx) => tx.pendingUploads.end(key)).catch(() => undefined);
}
