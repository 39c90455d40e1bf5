import type { BlobStore, CoreDeps } from '@lectern/core';

/** What the content routes need beyond the core: where binary files live. */
export interface ManagementServices {
  readonly core: CoreDeps;
  /** Asset binaries. Null when the host wired none: file uploads then answer 503. */
  readonly blobs: BlobStore | null;
}
