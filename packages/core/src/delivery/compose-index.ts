import type { DeliveryDocuments } from './document-port.ts';
import type { DeliveryIndexReader } from './index-port.ts';
import type { DeliveryIndexWriter } from './indexer/writer-port.ts';
import type { DeliveryIndexLedger } from './ledger-port.ts';

/** The delivery index as Delivery, GraphQL and the indexer see it, whatever holds the documents. */
export interface DeliveryIndex extends DeliveryIndexReader, DeliveryIndexWriter {
  /** Project ids that have a watermark. */
  indexedProjects(): Promise<string[]>;
}

/**
 * Joins the ledger (watermark, Sync feeds, model documents) and a document engine into one index:
 * the one composition every document engine shares.
 */
export function composeDeliveryIndex<Tx>(parts: {
  ledger: DeliveryIndexLedger<Tx>;
  documents: DeliveryDocuments;
}): DeliveryIndex {
  const { ledger, documents } = parts;
  const isRebuilding = (projectId: string) => documents.isRebuilding?.(projectId) === true;
  return {
    watermark: (projectId) => (isRebuilding(projectId) ? Promise.resolve(0) : ledger.watermark(projectId)),
    hasModel: (projectId) => (isRebuilding(projectId) ? Promise.resolve(false) : ledger.hasModel(projectId)),
    types: (projectId) => ledger.types(projectId),
    typeLinks: (projectId) => ledger.typeLinks?.(projectId) ?? Promise.resolve({}),
    taxonomies: (projectId) => ledger.taxonomies(projectId),
    languages: (projectId) => ledger.languages(projectId),
    changesSince: (options) => ledger.changesSince(options),
    modelChangesSince: (options) => ledger.modelChangesSince(options),
    indexedProjects: () => ledger.indexedProjects(),
    queryItems: (query) => documents.queryItems(query),
    itemsByCodename: (options) => documents.itemsByCodename(options),
    usedIn: (options) => documents.usedIn(options),
    indexedItemIds: (projectId) => documents.indexedItemIds(projectId),
    dependents: (options) => documents.dependents(options),
    apply: (batch) => documents.apply(batch),
    reset: (projectId) => documents.reset(projectId),
  };
}
