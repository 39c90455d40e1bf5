import { inject } from 'vitest';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { createSqlRecs } from '@lectern/recs-sql';
import { describeRecsIndexContract } from './recs-index-contract.ts';
import { createTestDatabase } from './test-database.ts';

const sqlIndex = (open: () => Promise<SqlStore>) => async () => {
  const store = await open();
  return { store, recs: await createSqlRecs({ db: store.db }), close: () => store.close() };
};

describeRecsIndexContract(
  'PGlite (pgvector)',
  sqlIndex(() => openPgliteStore()),
);
describeRecsIndexContract(
  'PostgreSQL',
  sqlIndex(async () => openPostgresStore({ connectionString: await createTestDatabase(inject('postgresUrl')) })),
);
