import { randomUUID } from 'node:crypto';
import { describe, inject } from 'vitest';
import { openS3BlobStore } from '@lectern/blob-s3';
import { describeBlobContract } from './blob-contract.ts';

const s3Endpoint = inject('s3Endpoint');

describe.skipIf(!s3Endpoint)('S3 (MinIO)', () => {
  describeBlobContract({
    adapter: 'blob-s3 (MinIO)',
    // A bucket that does not exist yet: the adapter creates it.
    open: () =>
      Promise.resolve(
        openS3BlobStore({
          endpoint: s3Endpoint,
          accessKey: inject('s3AccessKey'),
          secretKey: inject('s3SecretKey'),
          bucket: `lectern-contract-${randomUUID()}`,
        }),
      ),
  });
});
