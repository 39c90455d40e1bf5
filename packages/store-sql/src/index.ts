export {
  defaultPgliteSharedBuffersMib,
  migrate,
  openPgliteStore,
  openPostgresStore,
  type SqlStore,
  type StatementListener,
} from './sql-store.ts';
export type { Database } from './schema.ts';
export { notifySql } from './signals.ts';
export { filterVariantPage, searchScanRows } from './variant-filter-query.ts';
export { createIndexLedger, type LedgerTransaction, type SqlIndexLedger } from './index-ledger-repository.ts';
