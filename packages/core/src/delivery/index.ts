export * from './index-port.ts';
export { createSeqTracker, type SeqTracker, type SeqTrackerOptions } from './seq-tracker.ts';
export * from './indexer/index.ts';
export type { DeliveryIndexLedger, IndexChangeRow, LedgerWrite } from './ledger-port.ts';
export type { DeliveryDocuments } from './document-port.ts';
export { composeDeliveryIndex, type DeliveryIndex } from './compose-index.ts';
