import type { DeliveryChannel, IndexedVariant, ItemQuery, ItemQueryResult } from './index-port.ts';
import type { IndexBatch } from './indexer/writer-port.ts';

/**
 * The documents of the delivery index: the part that differs per engine (SQL tables, a search
 * engine). An adapter commits through the ledger (ledger-port.ts); `composeDeliveryIndex` joins
 * the two into the reader Delivery and GraphQL see and the writer the indexer uses.
 */
export interface DeliveryDocuments {
  queryItems(query: ItemQuery): Promise<ItemQueryResult>;
  itemsByCodename(options: {
    projectId: string;
    channel: DeliveryChannel;
    languages: readonly string[];
    codenames: readonly string[];
  }): Promise<IndexedVariant[]>;
  usedIn(options: {
    projectId: string;
    channel: DeliveryChannel;
    target: { readonly itemCodename: string } | { readonly assetId: string };
  }): Promise<IndexedVariant[]>;
  /** Ids of every item with a current document in any channel (during a rebuild: in the new copy). */
  indexedItemIds(projectId: string): Promise<string[]>;
  dependents(options: { projectId: string; itemIds: readonly string[]; assetIds: readonly string[] }): Promise<string[]>;
  /** See DeliveryIndexWriter.apply; written through the ledger's commit. */
  apply(batch: IndexBatch): Promise<boolean>;
  /** See DeliveryIndexWriter.reset. */
  reset(projectId: string): Promise<void>;
  /**
   * Whether a rebuild of the project is being written beside its live documents: the writer then
   * sees the project as not indexed yet (watermark 0, no model). Absent: never.
   */
  isRebuilding?(projectId: string): boolean;
}
