import type { DeliveryIndexReader } from './index-port.ts';
import type { DeliveryIndexWriter, IndexBatch } from './indexer/writer-port.ts';

/**
 * The ledger of the delivery index: what does not depend on where the documents live (SQL tables
 * or a search engine). The watermark, the Sync change feeds, the model change feed and the model
 * documents (types, taxonomies, languages) stay in the store's database whatever the document
 * engine: they are small, need transactions and ordered reads by sequence. A document engine
 * writes its documents inside `commit`, so readers see a batch's documents, its Sync changes and
 * the watermark together. `Tx` is the ledger's transaction, handed to a document engine that
 * shares the database (the SQL index); others ignore it.
 */

/** One Sync change to record (the last change of a variant in a channel). */
export interface IndexChangeRow {
  readonly channel: string;
  readonly itemId: string;
  readonly language: string;
  readonly changeType: 'changed' | 'deleted';
  readonly codename: string;
  readonly type: string;
  readonly collection: string;
  /** The variant's last `system` object as JSON text (null: unknown). */
  readonly system: string | null;
}

/** What a document engine wrote in a commit: the Sync changes to record and its own result. */
export interface LedgerWrite<T> {
  readonly changes: readonly IndexChangeRow[];
  readonly result: T;
}

export interface DeliveryIndexLedger<Tx = unknown>
  extends
    Pick<DeliveryIndexReader, 'watermark' | 'types' | 'typeLinks' | 'taxonomies' | 'languages' | 'changesSince'>,
    Pick<DeliveryIndexWriter, 'hasModel'> {
  /** Required here: every ledger keeps the model change feed. */
  modelChangesSince: NonNullable<DeliveryIndexReader['modelChangesSince']>;
  /** Project ids that have a watermark. */
  indexedProjects(): Promise<string[]>;
  /**
   * Runs `write` in one transaction holding the project's watermark (shared for a partial part —
   * parts of one re-render run at once — exclusive otherwise). `write` gets the watermark and
   * returns the Sync changes to record at `batch.toSeq`, or null to write nothing (the result is
   * then null). Unless the batch is partial, the model is replaced (recording its changes), the
   * watermark becomes `toSeq` and the `indexed` signal goes out at commit. `isRebuild`: the last
   * part of a rebuild, whose feeds and model start afresh.
   */
  commit<T>(options: {
    batch: IndexBatch;
    isRebuild?: boolean;
    write: (watermark: number, tx: Tx) => Promise<LedgerWrite<T> | null>;
  }): Promise<T | null>;
  /** Removes the project's watermark, feeds and model; `alongside` runs in the same transaction. */
  clear(projectId: string, alongside?: (tx: Tx) => Promise<void>): Promise<void>;
}
