import type { BlobStore, CoreDeps } from '@lectern/core';
import type { ImageLimits } from '../images/image-cache.ts';

/** What the content routes need beyond the core: where binary files live. */
export interface ManagementServices {
  readonly core: CoreDeps;
  /** Asset binaries. Null when the host wired none: file uploads then answer 503. */
  readonly blobs: BlobStore | null;
  /**
   * PUT /assets/{id} may leave out `file_reference` to keep the asset's file (the current
   * Kontent.ai reference); default false: required, as SPEC 4.2 says.
   */
  readonly isAssetFileOptionalOnUpdate?: boolean;
  /** Limits of image transformation (cache bound, misses per second, pixels); default `defaultImageLimits`. */
  readonly images?: ImageLimits;
}
