export type { DeliveryIndexWriter, IndexBatch, IndexDocument, IndexedModel, ItemDocuments } from './writer-port.ts';
export { indexEvents, indexProject, rebuildProject, type IndexProjectOptions } from './indexer.ts';
export { componentCodename } from './render-rich-text.ts';
export { deliveryTime } from './times.ts';
export {
  documentBody,
  documentRows,
  jsonbText,
  systemColumns,
  type SystemColumn,
  type LinkRow,
  type MemberRow,
  type ValueKind,
  type ValueRow,
} from './document-rows.ts';
export { createIndexer, type Indexer, type IndexerOptions } from './indexer-loop.ts';
