import { describe, inject } from 'vitest';
import { openPgliteStore, openPostgresStore } from '@lectern/store-sql';
import { describeStoreContract } from './store-contract.ts';
import { createTestDatabase } from './test-database.ts';

describeStoreContract({ engine: 'PGlite', open: () => openPgliteStore() });

const postgresUrl = inject('postgresUrl');
describe.skipIf(!postgresUrl)('PostgreSQL', () => {
  describeStoreContract({
    engine: 'PostgreSQL',
    open: async () => openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) }),
  });
});
