import { randomUUID } from 'node:crypto';
import { describe, inject } from 'vitest';
import { openS3BlobStore } from '@lectern/blob-s3';
import { describeTransformCache } from '../testing/transform-cache-suite.ts';

const s3Endpoint = inject('s3Endpoint');

describe.skipIf(!s3Endpoint)('S3 (MinIO)', () => {
  describeTransformCache({
    adapter: 'blob-s3 (MinIO)',
    open: () =>
      Promise.resolve(
        openS3BlobStore({
          endpoint: s3Endpoint,
          accessKey: inject('s3AccessKey'),
          secretKey: inject('s3SecretKey'),
          bucket: `lectern-transforms-${randomUUID()}`,
        }),
      ),
  });
});
