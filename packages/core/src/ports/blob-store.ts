import type { Readable } from 'node:stream';

export interface BlobInfo {
  readonly key: string;
  readonly size: number;
  readonly contentType: string;
}

/**
 * Binary files (asset contents). Keys are opaque strings chosen by the caller
 * (`<project>/<file id>`); a blob is immutable once written.
 */
export interface BlobStore {
  /** Streams `body` to the store; resolves with what was stored once it is durable. */
  put(options: { key: string; body: Readable; contentType: string }): Promise<BlobInfo>;
  /** The blob's info, or null when absent. */
  stat(key: string): Promise<BlobInfo | null>;
  /** A stream of the blob's bytes, or null when absent. */
  get(key: string): Promise<Readable | null>;
  /** Removes the blob; removing an absent blob is not an error. */
  delete(key: string): Promise<void>;
}
