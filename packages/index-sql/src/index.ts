export { createSqlIndex, type SqlDeliveryIndex } from './sql-index.ts';
export { createIndexer, type Indexer, type IndexerOptions } from './indexer-loop.ts';
export { recordChanges, type ChangeRow } from './sql-writer.ts';
export { recordModelChanges, modelChangesSince } from './model-changes.ts';
export type { IndexDatabase } from './schema.ts';
export { documentRows, type ValueRow } from './document-rows.ts';
