import { describe, inject } from 'vitest';
import { createSqlIndex } from '@lectern/index-sql';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { describeDeliveryIndexContract } from './delivery-index-contract.ts';
import { describeDeliveryIndexLinksContract } from './delivery-index-links-contract.ts';
import { createTestDatabase } from './test-database.ts';

function sqlIndex(store: SqlStore) {
  return {
    index: createSqlIndex({ db: store.db }),
    close: () => store.close(),
  };
}

describeDeliveryIndexContract({ engine: 'PGlite (index-sql)', open: async () => sqlIndex(await openPgliteStore()) });
describeDeliveryIndexLinksContract({
  engine: 'PGlite (index-sql)',
  open: async () => sqlIndex(await openPgliteStore()),
});

const postgresUrl = inject('postgresUrl');
describe.skipIf(!postgresUrl)('PostgreSQL', () => {
  const open = async () =>
    sqlIndex(await openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) }));
  describeDeliveryIndexContract({ engine: 'PostgreSQL (index-sql)', open });
  describeDeliveryIndexLinksContract({ engine: 'PostgreSQL (index-sql)', open });
});
