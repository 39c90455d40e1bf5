import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobStore, CoreDeps } from '@lectern/core';
import { LecternError } from '@lectern/errors';

/*
 * The transformed-image cache of each project, held under a byte bound (issue 27, finding 5).
 * Transformed images live in the blob store beside the originals; the `imageCache` ledger in the
 * database records each one's size and last use, because blob stores cannot list or order their
 * blobs cheaply and every replica must see one cache. A miss stores the blob, then its row, then
 * evicts the least recently used images until the project is under its bound (blob first, then
 * row: a crash in between leaves a row without a blob, which is a miss, never an untracked blob).
 */

/** Limits of image transformation; every one a setting (docs/assets.md). */
export interface ImageLimits {
  /** Bytes of transformed images kept per project; the least recently used go beyond it. */
  readonly cacheBytesPerProject: number;
  /** New transformations (cache misses) per project per second; hits are never limited. 0: no limit. */
  readonly transformsPerSecond: number;
  /** Largest source, and largest output, in pixels; larger is a 400 (IMAGE_TOO_LARGE). */
  readonly maxPixels: number;
}

export const defaultImageLimits: ImageLimits = {
  cacheBytesPerProject: 256 * 1024 * 1024,
  transformsPerSecond: 10,
  maxPixels: 50_000_000,
};

/** A hit refreshes its row's last use at most this often (ms), so hits rarely write. */
const touchIntervalMs = 60_000;
/** Rows read per round of eviction. */
const evictionBatch = 100;

export interface CachedImage {
  body: Readable;
  contentType: string;
  size: number;
}

/** The cached image under `key`, or null (a miss). A row whose blob is gone is dropped. */
export async function readCachedImage(options: {
  core: CoreDeps;
  blobs: BlobStore;
  projectId: string;
  key: string;
}): Promise<CachedImage | null> {
  const { core, blobs, projectId, key } = options;
  const entry = await core.store.transaction((tx) => tx.imageCache.get(projectId, key));
  if (!entry) return null;
  const body = await blobs.get(key);
  if (!body) {
    await core.store.transaction((tx) => tx.imageCache.delete(projectId, [key]));
    return null;
  }
  const now = core.clock.now();
  if (now.getTime() - entry.lastUsedAt.getTime() >= touchIntervalMs)
    await core.store.transaction((tx) => tx.imageCache.touch(projectId, key, now));
  return { body, contentType: entry.contentType, size: entry.bytes };
}

/** Stores a made image and its row, then evicts down to the bound. An image over the bound alone is not kept. */
export async function storeCachedImage(options: {
  core: CoreDeps;
  blobs: BlobStore;
  limits: ImageLimits;
  projectId: string;
  fileId: string;
  key: string;
  body: Buffer;
  contentType: string;
}): Promise<void> {
  const { core, blobs, projectId, key, body, contentType } = options;
  const bound = options.limits.cacheBytesPerProject;
  if (body.length > bound) return;
  await blobs.put({ key, body: Readable.from([body]), contentType, size: body.length });
  await core.store.transaction((tx) =>
    tx.imageCache.put({
      projectId,
      key,
      fileId: options.fileId,
      contentType,
      bytes: body.length,
      lastUsedAt: core.clock.now(),
    }),
  );
  await evict({ core, blobs, projectId, bound, keep: key });
}

/** Removes the project's least recently used images (never `keep`) until it holds at most `bound` bytes. */
async function evict(options: {
  core: CoreDeps;
  blobs: BlobStore;
  projectId: string;
  bound: number;
  keep: string;
}): Promise<void> {
  const { core, blobs, projectId, bound } = options;
  let total = await core.store.transaction((tx) => tx.imageCache.totalBytes(projectId));
  while (total > bound) {
    const oldest = await core.store.transaction((tx) => tx.imageCache.leastRecentlyUsed(projectId, evictionBatch));
    const victims = oldest.filter((e) => e.key !== options.keep);
    if (victims.length === 0) return;
    for (const victim of victims) {
      if (total <= bound) return;
      await blobs.delete(victim.key);
      await core.store.transaction((tx) => tx.imageCache.delete(projectId, [victim.key]));
      total -= victim.bytes;
    }
  }
}

/** The rate-limit counter of a project's transformations (the store's counters are keyed by UUID). */
function counterId(projectId: string): string {
  const hex = createHash('sha256').update(`image-transforms:${projectId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

let lastPurge = 0;

/**
 * Counts one new transformation of the project in the current second, in the store so every
 * process sharing the database enforces one limit; over the limit: 429 RATE_LIMITED with
 * Retry-After (the rest of the second).
 */
export async function admitTransformation(options: {
  core: CoreDeps;
  projectId: string;
  limits: ImageLimits;
}): Promise<void> {
  const perSecond = options.limits.transformsPerSecond;
  if (perSecond <= 0) return;
  const { core } = options;
  const now = core.clock.now();
  const [count] = await core.store.transaction(async (tx) => {
    if (now.getTime() - lastPurge > 60_000) {
      lastPurge = now.getTime();
      // An hour back: the Management API's own counters (in the same table) use hour windows.
      await tx.rateLimits.purge(new Date(now.getTime() - 3_600_000));
    }
    return tx.rateLimits.hit(counterId(options.projectId), [1_000], now);
  });
  if ((count ?? 0) > perSecond)
    throw new LecternError('RATE_LIMITED', {
      message: `More than ${perSecond} new image transformations per second in this project. Wait for the number of seconds in the Retry-After header; images already made are served at any rate.`,
      retryAfterSeconds: (1_000 - (now.getTime() % 1_000)) / 1_000,
    });
}
