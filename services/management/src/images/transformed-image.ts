import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { BinaryFileRecord, BlobStore } from '@lectern/core';
import { canonicalSpec, type ImageSpec, type OutputFormat } from './image-query.ts';
import {
  isIdentity,
  outputFormatOf,
  sourceFormatOf,
  transformImage,
  type TransformedImage,
} from './image-transform.ts';

/*
 * Transformed images are cached in the blob store beside the originals, under
 * `<project>/transforms/<file id>/<hash of the canonical spec>`: a file never changes, so a
 * cached image stays right forever and every process (any replica, either blob adapter) shares
 * it. Concurrent requests for the same image in one process share one transformation.
 */

export interface TransformedResult {
  body: Readable;
  contentType: string;
  size: number;
}

const inflight = new Map<string, Promise<TransformedImage>>();

/** The cache key of a transformation of a file (a valid BlobStore key). */
export function transformCacheKey(options: { file: BinaryFileRecord; canonical: string }): string {
  const hash = createHash('sha256').update(`${options.file.id}\n${options.canonical}`).digest('hex').slice(0, 40);
  return `${options.file.projectId}/transforms/${options.file.id}/${hash}`;
}

export interface TransformPlan {
  spec: ImageSpec;
  format: OutputFormat;
  key: string;
  /** Strong validator: equal for equal output (same file, same canonical transformation). */
  etag: string;
}

/**
 * What to make of `file` for `spec` and the client's `Accept`, or null when the file is not an
 * image Lectern transforms (the caller serves the original, as Kontent.ai serves other files
 * unchanged whatever the query) or the spec would leave it as it is (`isIdentity`).
 */
export function planTransform(options: {
  file: BinaryFileRecord;
  spec: ImageSpec;
  accept: string;
}): TransformPlan | null {
  const source = sourceFormatOf(options.file.contentType);
  if (source === null) return null;
  const format = outputFormatOf({ spec: options.spec, source, accept: options.accept });
  if (isIdentity({ spec: options.spec, source, format })) return null;
  const key = transformCacheKey({ file: options.file, canonical: canonicalSpec(options.spec, format) });
  return { spec: options.spec, format, key, etag: `"${key.slice(key.lastIndexOf('/') + 1)}"` };
}

/** The transformed image of a plan, from the cache or made now (and cached). `source` opens the original. */
export async function transformedImage(options: {
  blobs: BlobStore;
  file: BinaryFileRecord;
  plan: TransformPlan;
  source: () => Promise<Readable | null>;
}): Promise<TransformedResult> {
  const { blobs, file } = options;
  const { key, spec, format } = options.plan;
  const cached = await blobs.stat(key);
  if (cached) {
    const body = await blobs.get(key);
    if (body) return { body, contentType: cached.contentType, size: cached.size };
  }
  let made = inflight.get(key);
  if (!made) {
    made = (async () => {
      const original = await options.source();
      if (!original) throw new Error(`The blob of file ${file.id} is missing.`);
      const out = await transformImage({ source: await buffer(original), spec, format });
      await blobs.put({ key, body: Readable.from([out.body]), contentType: out.contentType, size: out.body.length });
      return out;
    })();
    inflight.set(key, made);
    made.finally(() => inflight.delete(key)).catch(() => undefined);
  }
  const out = await made;
  return { body: Readable.from([out.body]), contentType: out.contentType, size: out.body.length };
}
