export { openS3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.ts';
