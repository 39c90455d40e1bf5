import type { CorpusStats, RecsIndexWriter, RecsTracking } from './recs-port.ts';

/**
 * The recommendation state the store's database keeps whatever engine searches the entries (SQL
 * or OpenSearch k-NN): the system of record of the entries with their document frequencies and
 * watermark, the visits and popularity. A search-engine index writes its copy beside it and reads
 * the popularity, document frequencies and the current item's embedding from it.
 */
export interface RecsLedger {
  /** The system of record's writer: a batch it already has is ignored. */
  readonly writer: RecsIndexWriter;
  readonly tracking: RecsTracking;
  /** Document frequencies of the terms among the project's entries, and the entry count. */
  termStats(options: { projectId: string; terms: readonly string[] }): Promise<CorpusStats>;
  /** The embedding of the item with this codename (its first language); null without an entry. */
  embeddingOf(projectId: string, codename: string): Promise<number[] | null>;
  /** The `limit` most popular codenames with their time-decayed popularity as of `at`. */
  popularity(projectId: string, at: Date, limit: number): Promise<Map<string, number>>;
  /** Drops the project's entries, document frequencies and watermark (visits and settings stay). */
  reset(projectId: string): Promise<void>;
}
