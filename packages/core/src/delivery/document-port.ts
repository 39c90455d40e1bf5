import type { DeliveryIndexReader } from './index-port.ts';
import type { DeliveryIndexWriter } from './indexer/writer-port.ts';

/**
 * The documents of the delivery index: the part that differs per engine (SQL tables, a search
 * engine). An adapter commits through the ledger (ledger-port.ts); `composeDeliveryIndex` joins
 * the two into the reader Delivery and GraphQL see and the writer the indexer uses. `apply` writes
 * through the ledger's commit; `indexedItemIds` during a rebuild are those of the new copy.
 */
export interface DeliveryDocuments
  extends
    Pick<DeliveryIndexReader, 'queryItems' | 'itemsByCodename' | 'usedIn'>,
    Pick<DeliveryIndexWriter, 'indexedItemIds' | 'dependents' | 'apply' | 'reset'> {
  /**
   * Whether a rebuild of the project is being written beside its live documents: the writer then
   * sees the project as not indexed yet (watermark 0, no model). Absent: never.
   */
  isRebuilding?(projectId: string): boolean;
}
