import { randomUUID } from 'node:crypto';
import { describe, inject } from 'vitest';
import { Client } from 'minio';
import { openS3BlobStore } from '@lectern/blob-s3';
import { describeUploadLeaks } from '../../testing/upload-leak-suite.ts';

const s3Endpoint = inject('s3Endpoint');

/** Every object of the bucket and every unfinished multipart upload (whose parts are stored too). */
async function listBucket(client: Client, bucket: string): Promise<string[]> {
  const names: string[] = [];
  for await (const o of client.listObjectsV2(bucket, '', true)) names.push(`object ${(o as { name: string }).name}`);
  for await (const u of client.listIncompleteUploads(bucket, '', true)) names.push(`incomplete ${u.key}`);
  return names.sort();
}

describe.skipIf(!s3Endpoint)('S3 (MinIO)', () => {
  const url = new URL(s3Endpoint || 'http://127.0.0.1:9000');
  const credentials = { accessKey: inject('s3AccessKey'), secretKey: inject('s3SecretKey') };
  const bucket = `lectern-upload-leaks-${randomUUID()}`;
  describeUploadLeaks({
    adapter: 'blob-s3 (MinIO)',
    // More than one 5 MiB part: the multipart upload, the case that can leave parts behind.
    tornBytes: 6 * 1024 * 1024,
    open: () => {
      const blobs = openS3BlobStore({ endpoint: s3Endpoint, ...credentials, bucket });
      const client = new Client({
        endPoint: url.hostname,
        port: Number(url.port),
        useSSL: false,
        pathStyle: true,
        ...credentials,
      });
      return Promise.resolve({
        blobs,
        list: async () => ((await client.bucketExists(bucket)) ? listBucket(client, bucket) : []),
      });
    },
  });
});
