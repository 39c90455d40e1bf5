import { describe, inject } from 'vitest';
import { openPgliteStore, openPostgresStore } from '@lectern/store-sql';
import { createTestDatabase } from './test-database.ts';
import { describeWebhookContract } from './webhook-contract.ts';

describeWebhookContract({ engine: 'PGlite', open: () => openPgliteStore() });

const postgresUrl = inject('postgresUrl');
describe.skipIf(!postgresUrl)('PostgreSQL', () => {
  describeWebhookContract({
    engine: 'PostgreSQL',
    open: async () => openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) }),
  });
});
