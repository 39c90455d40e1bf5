export { migrate, openPgliteStore, openPostgresStore, type SqlStore } from './sql-store.ts';
export type { Database } from './schema.ts';
