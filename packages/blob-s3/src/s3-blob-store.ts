import { Readable } from 'node:stream';
import { Client } from 'minio';
import { isValidBlobKey, type BlobEntry, type BlobInfo, type BlobStore } from '@lectern/core';

export interface S3BlobStoreOptions {
  /** Base URL of the S3 API, e.g. `http://127.0.0.1:9000` or `https://s3.eu-west-1.amazonaws.com`. */
  readonly endpoint: string;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly bucket: string;
  /** Default `us-east-1`. */
  readonly region?: string;
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`), needed by MinIO. Default true. */
  readonly isPathStyle?: boolean;
  /**
   * Size of one multipart upload part in bytes (default 5 MiB, the S3 minimum): the most of a
   * body held in memory at once. Bodies up to this size go in one PUT.
   */
  readonly partSizeBytes?: number;
}

/** The slice of the `minio` client this adapter uses. */
type S3Client = Pick<
  Client,
  'bucketExists' | 'makeBucket' | 'putObject' | 'statObject' | 'getObject' | 'removeObject' | 'listObjectsV2'
>;

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === 'NotFound' || code === 'NoSuchKey';
}

function checkKey(key: string): void {
  if (!isValidBlobKey(key)) throw new TypeError(`Invalid blob key '${key}'`);
}

/**
 * Reads up to `limit` bytes of `body`. When the body ends within them, returns them as one
 * buffer; otherwise returns a stream of the whole body (those bytes, then the rest, unread yet).
 * Either way at most about `limit` bytes are held, and `counted()` gives the bytes passed on.
 */
async function splitSmall(
  body: Readable,
  limit: number,
): Promise<{ small: Buffer; rest: null } | { small: null; rest: Readable; counted: () => number }> {
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let size = 0;
  while (size <= limit) {
    const next = await iterator.next();
    if (next.done) return { small: Buffer.concat(head), rest: null };
    const chunk = Buffer.from(next.value);
    head.push(chunk);
    size += chunk.length;
  }
  let counted = 0;
  async function* all(): AsyncGenerator<Buffer> {
    for (const chunk of head.splice(0)) {
      counted += chunk.length;
      yield chunk;
    }
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      const chunk = Buffer.from(next.value);
      counted += chunk.length;
      yield chunk;
    }
  }
  return { small: null, rest: Readable.from(all()), counted: () => counted };
}

/**
 * A BlobStore on an S3-compatible server through the `minio` client (the cluster shape). The
 * bucket is created on first use when missing. A put streams through multipart upload in parts
 * of `partSizeBytes`, so memory stays bounded whatever the body size.
 */
export function openS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const url = new URL(options.endpoint);
  const region = options.region ?? 'us-east-1';
  const partSize = options.partSizeBytes ?? 5 * 1024 * 1024;
  const client: S3Client = new Client({
    endPoint: url.hostname.replace(/^\[|\]$/g, ''),
    ...(url.port === '' ? {} : { port: Number(url.port) }),
    useSSL: url.protocol === 'https:',
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region,
    pathStyle: options.isPathStyle ?? true,
    partSize,
  });
  const bucket = options.bucket;

  let ready: Promise<void> | null = null;
  const ensureBucket = (): Promise<void> => {
    ready ??= (async () => {
      if (await client.bucketExists(bucket)) return;
      try {
        await client.makeBucket(bucket, region);
      } catch (error) {
        // Another process created it in between.
        const code = (error as { code?: string })?.code;
        if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw error;
      }
    })().catch((error: unknown) => {
      ready = null;
      throw error;
    });
    return ready;
  };

  async function statOf(key: string): Promise<BlobInfo | null> {
    checkKey(key);
    await ensureBucket();
    try {
      const s = await client.statObject(bucket, key);
      const contentType = (s.metaData as Record<string, string | undefined>)['content-type'];
      return { key, size: s.size, contentType: contentType ?? 'application/octet-stream' };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  return {
    async put({ key, body, contentType }) {
      checkKey(key);
      await ensureBucket();
      const meta = { 'Content-Type': contentType };
      // A body up to one part goes in one PUT; a longer one streams in parts (with its size left
      // unknown, so the client never reads it into one buffer).
      const split = await splitSmall(body, partSize);
      if (split.small) {
        await client.putObject(bucket, key, split.small, split.small.length, meta);
        return { key, size: split.small.length, contentType };
      }
      await client.putObject(bucket, key, split.rest, undefined, meta);
      return { key, size: split.counted(), contentType };
    },
    stat: statOf,
    async get(key) {
      checkKey(key);
      await ensureBucket();
      try {
        return (await client.getObject(bucket, key)) as Readable;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      checkKey(key);
      await ensureBucket();
      await client.removeObject(bucket, key);
    },
    async list(prefix) {
      await ensureBucket();
      const entries: BlobEntry[] = [];
      // Recursive: every key under the prefix, not one "directory" level. Uploads in progress
      // (multipart, not completed) are not objects yet, so they are not listed.
      for await (const item of client.listObjectsV2(bucket, prefix, true)) {
        const { name, size } = item as { name?: string; size?: number };
        if (name !== undefined) entries.push({ key: name, size: size ?? 0 });
      }
      return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}
