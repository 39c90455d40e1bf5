import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { connectSearchEngine } from '@lectern/search-engine';
import { openSearchRecs } from '@lectern/engines';
import { openPostgresStore } from '@lectern/store-sql';
import { createTestDatabase, describeRecsIndexContract } from '@lectern/testing';

/** The recommendation index on OpenSearch's k-NN plugin (Lucene HNSW), PostgreSQL beside it. */
describeRecsIndexContract('OpenSearch k-NN', async () => {
  const store = await openPostgresStore({ connectionString: await createTestDatabase(inject('postgresUrl')) });
  const engine = connectSearchEngine({ flavour: 'opensearch', url: inject('searchUrl') });
  const recs = await openSearchRecs({
    engine,
    db: store.db,
    prefix: `recs-test-${randomBytes(4).toString('hex')}`,
    dimensions: 512,
  });
  return {
    store,
    recs,
    close: async () => {
      await recs.close();
      await store.close();
    },
  };
});
