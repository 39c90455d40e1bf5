/** One transformed image kept in the blob store under `key` (issue 27, finding 5). */
export interface ImageCacheEntry {
  readonly projectId: string;
  /** The blob key of the transformed image. */
  readonly key: string;
  /** The file it was made from. */
  readonly fileId: string;
  readonly contentType: string;
  readonly bytes: number;
  readonly lastUsedAt: Date;
}

/**
 * The ledger of the transformed-image cache: what each project's cache holds, how large it is
 * and what was served least recently, so the cache can be held under a bound on any blob store
 * (which cannot list or order its blobs cheaply). The blob is written before its row and removed
 * before its row, so a row without its blob can exist (a cache miss) but a tracked blob never
 * outlives its row.
 */
export interface ImageCacheRepository {
  get(projectId: string, key: string): Promise<ImageCacheEntry | null>;
  /** Records an entry, replacing one under the same key. */
  put(entry: ImageCacheEntry): Promise<void>;
  /** Sets the entry's last use to `at` (nothing when absent). */
  touch(projectId: string, key: string, at: Date): Promise<void>;
  /** Bytes of every entry of the project. */
  totalBytes(projectId: string): Promise<number>;
  /** The project's entries served least recently first, at most `limit`. */
  leastRecentlyUsed(projectId: string, limit: number): Promise<ImageCacheEntry[]>;
  /** Removes the entries (absent ones are no error). */
  delete(projectId: string, keys: readonly string[]): Promise<void>;
}
