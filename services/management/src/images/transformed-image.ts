import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { BinaryFileRecord, BlobStore, CoreDeps } from '@lectern/core';
import type { ImageSpec, OutputFormat } from './image-query.ts';
import { canonicalTransform, resolveTransform, type ResolvedTransform, type SourceInfo } from './image-resolve.ts';
import {
  contentTypeOfFormat,
  isIdentity,
  outputFormatOf,
  readSourceInfo,
  sourceFormatOf,
  transformImage,
} from './image-transform.ts';
import {
  admitTransformation,
  readCachedImage,
  storeCachedImage,
  type CachedImage,
  type ImageLimits,
} from './image-cache.ts';

/*
 * A request for a transformed image: planned from the query alone (is there anything to do?),
 * resolved against the source's size (clamped, normalised: the cache key), then served from the
 * cache (image-cache.ts) or made now. Cached images sit under
 * `<project>/transforms/<file id>/<hash of the canonical transform>`. Concurrent requests for the
 * same image in one process share one transformation, counted once against the rate limit.
 */

export type TransformedResult = CachedImage;

const inflight = new Map<string, Promise<Buffer>>();

/** Sources' sizes by file id (files never change), so a cache hit rarely reads the original. */
const sourceInfos = new Map<string, SourceInfo>();
const sourceInfoMax = 10_000;

/** The cache key of a transformation of a file (a valid BlobStore key). */
export function transformCacheKey(options: { file: BinaryFileRecord; canonical: string }): string {
  const hash = createHash('sha256').update(`${options.file.id}\n${options.canonical}`).digest('hex').slice(0, 40);
  return `${options.file.projectId}/transforms/${options.file.id}/${hash}`;
}

export interface TransformPlan {
  spec: ImageSpec;
  sourceFormat: OutputFormat;
  format: OutputFormat;
}

/**
 * What to make of `file` for `spec` and the client's `Accept`, or null when the file is not an
 * image Lectern transforms (the caller serves the original, as Kontent.ai serves other files
 * unchanged whatever the query) or the spec would leave any image as it is (`isIdentity`).
 */
export function planTransform(options: {
  file: BinaryFileRecord;
  spec: ImageSpec;
  accept: string;
}): TransformPlan | null {
  const sourceFormat = sourceFormatOf(options.file.contentType);
  if (sourceFormat === null) return null;
  const format = outputFormatOf({ spec: options.spec, source: sourceFormat, accept: options.accept });
  if (isIdentity({ spec: options.spec, source: sourceFormat, format })) return null;
  return { spec: options.spec, sourceFormat, format };
}

/** The original's bytes, read at most once per request. */
export function sourceReader(blobs: BlobStore, file: BinaryFileRecord): () => Promise<Buffer> {
  let read: Promise<Buffer> | null = null;
  return () =>
    (read ??= (async () => {
      const original = await blobs.get(file.blobKey);
      if (!original) throw new Error(`The blob of file ${file.id} is missing.`);
      return buffer(original);
    })());
}

export interface ResolvedPlan {
  transform: ResolvedTransform;
  key: string;
  /** Strong validator: equal for equal output (same file, same canonical transform). */
  etag: string;
}

/**
 * The plan resolved against the source (its size read once per process and file), or null when
 * it leaves the source as it is once clamped (a `w` beyond the source's width, say): the caller
 * serves the original. Throws IMAGE_TOO_LARGE for a source or output over `limits.maxPixels`.
 */
export async function resolvePlan(options: {
  file: BinaryFileRecord;
  plan: TransformPlan;
  limits: ImageLimits;
  source: () => Promise<Buffer>;
}): Promise<ResolvedPlan | null> {
  const { file, plan, limits } = options;
  let info = sourceInfos.get(file.id);
  if (info) {
    sourceInfos.delete(file.id);
  } else {
    info = await readSourceInfo({ source: await options.source(), maxPixels: limits.maxPixels });
    if (sourceInfos.size >= sourceInfoMax) sourceInfos.delete(sourceInfos.keys().next().value as string);
  }
  sourceInfos.set(file.id, info);
  const transform = resolveTransform({ ...plan, source: info, maxPixels: limits.maxPixels });
  if (!transform) return null;
  const key = transformCacheKey({ file, canonical: canonicalTransform(transform) });
  return { transform, key, etag: `"${key.slice(key.lastIndexOf('/') + 1)}"` };
}

/** The transformed image, from the cache or made now (and cached). Misses are rate-limited per project. */
export async function transformedImage(options: {
  core: CoreDeps;
  blobs: BlobStore;
  limits: ImageLimits;
  file: BinaryFileRecord;
  resolved: ResolvedPlan;
  source: () => Promise<Buffer>;
}): Promise<TransformedResult> {
  const { core, blobs, limits, file } = options;
  const { key, transform } = options.resolved;
  const cached = await readCachedImage({ core, blobs, projectId: file.projectId, key });
  if (cached) return cached;
  let made = inflight.get(key);
  if (!made) {
    // Registered before anything is awaited, so concurrent requests for the image share it (and
    // count once against the rate; when refused, they share the refusal).
    made = (async () => {
      await admitTransformation({ core, projectId: file.projectId, limits });
      const out = await transformImage({ source: await options.source(), transform, maxPixels: limits.maxPixels });
      await storeCachedImage({
        core,
        blobs,
        limits,
        projectId: file.projectId,
        fileId: file.id,
        key,
        body: out.body,
        contentType: out.contentType,
      });
      return out.body;
    })();
    inflight.set(key, made);
    made.finally(() => inflight.delete(key)).catch(() => undefined);
  }
  const body = await made;
  return { body: Readable.from([body]), contentType: contentTypeOfFormat(transform.format), size: body.length };
}
