export { createSqlDocuments, createSqlIndex, type SqlDeliveryIndex } from './sql-index.ts';
export type { IndexDatabase } from './schema.ts';
export { itemQuerySql, type SqlItemQuery } from './query-sql.ts';
