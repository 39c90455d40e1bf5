export { createSqlDocuments, createSqlIndex, type SqlDeliveryIndex } from './sql-index.ts';
export type { IndexDatabase } from './schema.ts';
