import type { Readable } from 'node:stream';

export interface BlobInfo {
  readonly key: string;
  /** Bytes stored. */
  readonly size: number;
  /** The MIME type given to `put`. */
  readonly contentType: string;
}

/**
 * What `put` rejects with when the store has no room left (a full disk or volume, a storage
 * server at its free-space threshold): the upload is refused with `FILE_STORAGE_FULL` (503)
 * instead of an unexpected error, and nothing is stored.
 */
export class BlobStoreFullError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BlobStoreFullError';
  }
}

/** One stored blob as `list` names it. */
export interface BlobEntry {
  readonly key: string;
  /** Bytes stored. */
  readonly size: number;
}

/**
 * Binary files (asset contents). Keys are chosen by the caller (`<project>/<file id>`): 1 to 512
 * characters, `/`-separated segments of letters, digits, `.`, `_` and `-`, no segment empty or
 * starting with `.`. Adapters reject other keys (a programming error, never user input). A key is
 * written once; writing it again replaces the blob whole.
 */
export interface BlobStore {
  /**
   * Streams `body` to the store without holding it whole in memory, and resolves with what was
   * stored once it is durable and readable. `size`, when the caller knows it, lets adapters plan
   * the upload; it is not checked. When `body` errors, `put` rejects and nothing is stored under
   * `key` (a previous blob under it stays).
   */
  put(options: { key: string; body: Readable; contentType: string; size?: number }): Promise<BlobInfo>;
  /** The blob's info, or null when absent. */
  stat(key: string): Promise<BlobInfo | null>;
  /** A stream of the blob's bytes, or null when absent. */
  get(key: string): Promise<Readable | null>;
  /**
   * Removes the blob, and whatever a put of it interrupted by a crash left behind (an unfinished
   * S3 multipart upload); removing an absent blob is not an error.
   */
  delete(key: string): Promise<void>;
  /**
   * Every blob whose key starts with `prefix` (`''`: all of them; `<project>/`: one project's),
   * sorted by key, with its size. Half-written bodies are never listed. For audits and tests
   * (a refused upload must leave no bytes behind); it reads the whole listing into memory.
   */
  list(prefix: string): Promise<readonly BlobEntry[]>;
}

const keySegment = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** True when `key` follows the BlobStore key rules; adapters call it before touching storage. */
export function isValidBlobKey(key: string): boolean {
  return key.length > 0 && key.length <= 512 && key.split('/').every((s) => keySegment.test(s));
}
