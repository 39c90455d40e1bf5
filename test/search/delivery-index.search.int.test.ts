import { afterAll, beforeAll, describe, inject } from 'vitest';
import { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { openSearchDeliveryIndex } from '@lectern/engines';
import { connectSearchEngine, elasticsearchEngine, type SearchEngine } from '@lectern/search-engine';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import {
  createTestDatabase,
  describeDeliveryIndexContract,
  describeDeliveryIndexLinksContract,
  linksContractProjectId,
  type OpenedIndex,
} from '@lectern/testing';
import { startElasticsearchCompatProxy, type ElasticsearchCompatProxy } from '../engines/elasticsearch-compat-proxy.ts';
import { uniqueIndexName } from '../engines/search-fixture.ts';
import { describeSnapshotReads, neighbourProjectId, snapshotProjectId } from './snapshot-reads.ts';

/**
 * The delivery index contracts on the search engine (OpenSearch, started by the `search` project's
 * global setup), through both clients: `@opensearch-project/opensearch` directly, and
 * `@elastic/elasticsearch` through the test-only compatibility proxy (it rewrites the vendor
 * media type of request bodies and adds the product header to responses, nothing else). The
 * watermark, Sync feeds and model stay in SQL: PostgreSQL, and PGlite for the second flavour,
 * which also runs with a result window of two hits so that the `search_after` paging is tested.
 */
const searchUrl = inject('searchUrl');
const postgresUrl = inject('postgresUrl');
const contractProjects = [
  '11111111-1111-4111-8111-111111111111',
  linksContractProjectId,
  snapshotProjectId,
  neighbourProjectId,
];

function opener(
  connect: () => SearchEngine,
  openStore: () => Promise<SqlStore>,
  prefix: string,
  resultWindow?: number,
) {
  return async (): Promise<OpenedIndex> => {
    const store = await openStore();
    const engine = connect();
    const index = openSearchDeliveryIndex({
      engine,
      db: store.db,
      prefix: uniqueIndexName(prefix),
      ...(resultWindow === undefined ? {} : { resultWindow }),
    });
    return {
      index,
      close: async () => {
        for (const projectId of contractProjects) await index.dropProject(projectId);
        await store.close();
        await engine.close();
      },
    };
  };
}

describe.skipIf(!searchUrl || !postgresUrl)('OpenSearch client, metadata on PostgreSQL', () => {
  const engine = 'OpenSearch (index-elasticsearch, opensearch flavour)';
  const open = opener(
    () => connectSearchEngine({ flavour: 'opensearch', url: searchUrl }),
    async () => openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) }),
    'contract-os',
  );
  describeDeliveryIndexContract({ engine, open });
  describeDeliveryIndexLinksContract({ engine, open });
  describeSnapshotReads({ engine, open });
});

describe.skipIf(!searchUrl)('Elasticsearch client through the compatibility proxy, metadata on PGlite', () => {
  let proxy: ElasticsearchCompatProxy;
  beforeAll(async () => {
    proxy = await startElasticsearchCompatProxy(searchUrl);
  });
  afterAll(async () => {
    await proxy.stop();
  });
  const engine = 'OpenSearch (index-elasticsearch, elasticsearch flavour)';
  const open = opener(
    () => elasticsearchEngine(new ElasticsearchClient({ node: proxy.url })),
    () => openPgliteStore(),
    'contract-es',
    // A result window of 2 hits: every list longer than that pages by search_after.
    2,
  );
  describeDeliveryIndexContract({ engine, open });
  describeDeliveryIndexLinksContract({ engine, open });
  describeSnapshotReads({ engine, open });
});
