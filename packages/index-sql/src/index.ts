export { createSqlIndex, type SqlDeliveryIndex } from './sql-index.ts';
export { createIndexer, type Indexer, type IndexerOptions } from './indexer-loop.ts';
