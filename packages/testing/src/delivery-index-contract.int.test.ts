import { describe, inject } from 'vitest';
import { createSqlIndex } from '@lectern/index-sql';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { describeDeliveryIndexContract } from './delivery-index-contract.ts';
import { createTestDatabase } from './test-database.ts';

function sqlIndex(store: SqlStore) {
  return {
    index: createSqlIndex({ db: store.db }),
    close: () => store.close(),
  };
}

describeDeliveryIndexContract({ engine: 'PGlite (index-sql)', open: async () => sqlIndex(await openPgliteStore()) });

const postgresUrl = inject('postgresUrl');
describe.skipIf(!postgresUrl)('PostgreSQL', () => {
  describeDeliveryIndexContract({
    engine: 'PostgreSQL (index-sql)',
    open: async () => sqlIndex(await openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) })),
  });
});
