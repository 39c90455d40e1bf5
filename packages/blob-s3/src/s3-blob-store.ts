import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { mappedErrors, onceMoreWhenServerFailed, serverErrorsKept } from './s3-errors.ts';
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
  | 'bucketExists'
  | 'makeBucket'
  | 'putObject'
  | 'statObject'
  | 'getObject'
  | 'removeObject'
  | 'listObjectsV2'
  | 'initiateNewMultipartUpload'
  | 'uploadPart'
  | 'completeMultipartUpload'
  | 'abortMultipartUpload'
  | 'removeIncompleteUpload'
>;

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === 'NotFound' || code === 'NoSuchKey';
}

function checkKey(key: string): void {
  if (!isValidBlobKey(key)) throw new TypeError(`Invalid blob key '${key}'`);
}

/**
 * Reads the next part of a body: chunks until at least `size` bytes are held or the body ends
 * (`isLast`). At most `size` plus one chunk is held at once. Rejects when the body fails.
 */
async function readPart(chunks: AsyncIterator<Buffer>, size: number): Promise<{ bytes: Buffer; isLast: boolean }> {
  const held: Buffer[] = [];
  let length = 0;
  while (length < size) {
    const next = await chunks.next();
    if (next.done) return { bytes: Buffer.concat(held), isLast: true };
    const chunk = Buffer.from(next.value);
    held.push(chunk);
    length += chunk.length;
  }
  return { bytes: Buffer.concat(held), isLast: false };
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
    // The client's own retry (once, on a 5xx) threw away the server's error code: a full MinIO
    // answering 500 "no space left on device" became a bare "Retryable HTTP status: 500". The
    // transport keeps the code (s3-errors.ts); the one retry of idempotent requests is ours.
    transport: serverErrorsKept(url.protocol === 'https:'),
    retryOptions: { disableRetry: true },
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
    put: (input) =>
      mappedErrors(async () => {
        const { key, body, contentType } = input;
        checkKey(key);
        await ensureBucket();
        const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        // A body up to one part goes in one PUT; a longer one in a multipart upload driven here,
        // part by part, so a failing body (a client gone mid-upload) is seen at once and the
        // upload aborted: its parts would otherwise stay stored, billed and invisible.
        let part = await readPart(chunks, partSize);
        if (part.isLast) {
          const bytes = part.bytes;
          await onceMoreWhenServerFailed(() =>
            client.putObject(bucket, key, bytes, bytes.length, { 'Content-Type': contentType }),
          );
          return { key, size: part.bytes.length, contentType };
        }
        const uploadId = await client.initiateNewMultipartUpload(bucket, key, { 'Content-Type': contentType });
        try {
          const etags: { part: number; etag: string }[] = [];
          let size = 0;
          for (let n = 1; part.bytes.length > 0 || n === 1; n += 1) {
            const bytes = part.bytes;
            const uploaded = await onceMoreWhenServerFailed(() =>
              client.uploadPart(
                { bucketName: bucket, objectName: key, uploadID: uploadId, partNumber: n, headers: {} },
                bytes,
              ),
            );
            etags.push({ part: n, etag: uploaded.etag });
            size += part.bytes.length;
            if (part.isLast) break;
            part = await readPart(chunks, partSize);
          }
          await client.completeMultipartUpload(bucket, key, uploadId, etags);
          return { key, size, contentType };
        } catch (error) {
          await client.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
          throw error;
        }
      }),
    stat: (key) => mappedErrors(() => statOf(key)),
    get: (key) =>
      mappedErrors(async () => {
        checkKey(key);
        await ensureBucket();
        try {
          return (await client.getObject(bucket, key)) as Readable;
        } catch (error) {
          if (isNotFound(error)) return null;
          throw error;
        }
      }),
    delete: (key) =>
      mappedErrors(async () => {
        checkKey(key);
        await ensureBucket();
        await client.removeObject(bucket, key);
        // And the parts of a put of it that a crash interrupted (see `put`), so a swept upload
        // leaves nothing stored. One listing request per delete; deletes are rare.
        await client.removeIncompleteUpload(bucket, key).catch((error: unknown) => {
          // Listed a moment ago, aborted since (by its own put, or another delete).
          if ((error as { code?: string })?.code !== 'NoSuchUpload') throw error;
        });
      }),
    list: (prefix) =>
      mappedErrors(async () => {
        await ensureBucket();
        const entries: BlobEntry[] = [];
        // Recursive: every key under the prefix, not one "directory" level. Uploads in progress
        // (multipart, not completed) are not objects yet, so they are not listed.
        for await (const item of client.listObjectsV2(bucket, prefix, true)) {
          const { name, size } = item as { name?: string; size?: number };
          if (name !== undefined) entries.push({ key: name, size: size ?? 0 });
        }
        return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      }),
  };
}
