import { Client as ElasticsearchClient, errors as elasticsearchErrors } from '@elastic/elasticsearch';
import { Client as OpenSearchClient } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startElasticsearchCompatProxy, type ElasticsearchCompatProxy } from './elasticsearch-compat-proxy.ts';
import {
  articleMapping,
  articleQuery,
  articles,
  articleSort,
  expectedArticlePage,
  pageSize,
  uniqueIndexName,
  type Article,
} from './search-fixture.ts';

const searchUrl = inject('searchUrl');

/** Bulk body: one action line and one document line per article, ids = slugs. */
function bulkOperations(index: string): object[] {
  return articles.flatMap((article) => [{ index: { _index: index, _id: article.slug } }, article]);
}

describe.skipIf(!searchUrl)('search engine (OpenSearch) through @opensearch-project/opensearch', () => {
  const client = new OpenSearchClient({ node: searchUrl });
  afterAll(() => client.close());

  it('creates an index with a mapping, bulk-indexes, and answers a filtered, sorted, paged search', async () => {
    const index = uniqueIndexName('articles');
    await client.indices.create({ index, body: { mappings: articleMapping, settings: { number_of_replicas: 0 } } });
    const mapping = await client.indices.getMapping({ index });
    expect(mapping.body[index]?.mappings.properties?.['category']).toEqual({ type: 'keyword' });

    const bulk = await client.bulk({ body: bulkOperations(index), refresh: true });
    expect(bulk.body.errors).toBe(false);
    expect(bulk.body.items).toHaveLength(articles.length);

    const pages = [];
    for (const page of [0, 1, 2]) {
      const { body } = await client.search({
        index,
        body: { query: articleQuery, sort: articleSort, from: page * pageSize, size: pageSize },
      });
      pages.push({
        total: typeof body.hits.total === 'number' ? body.hits.total : body.hits.total?.value,
        slugs: body.hits.hits.map((hit) => (hit._source as Article | undefined)?.slug),
      });
    }
    expect(pages).toEqual([expectedArticlePage(0), expectedArticlePage(1), expectedArticlePage(2)]);
    // The expectation spelled out, in case the fixture's own computation were wrong.
    expect(pages.map((p) => p.slugs)).toEqual([
      ['article-03', 'article-15', 'article-27'],
      ['article-06', 'article-18', 'article-09'],
      ['article-21'],
    ]);
    expect(pages[0]?.total).toBe(7);

    await client.indices.delete({ index });
  });
});

describe.skipIf(!searchUrl)('search engine (OpenSearch) through @elastic/elasticsearch', () => {
  it('is refused without a shim: no Elasticsearch product header, vendor media types rejected', async () => {
    const client = new ElasticsearchClient({ node: searchUrl });
    try {
      // The server answers 200, but the client rejects a response without X-Elastic-Product.
      await expect(client.info()).rejects.toBeInstanceOf(elasticsearchErrors.ProductNotSupportedError);
      // A request with a body is rejected by OpenSearch itself: it does not know the media type.
      const create = client.indices.create({ index: uniqueIndexName('refused'), mappings: articleMapping });
      await expect(create).rejects.toMatchObject({
        meta: { statusCode: 406 },
        message: expect.stringContaining('application/vnd.elasticsearch+json'),
      });
    } finally {
      await client.close();
    }
  });

  describe('with the test-only compatibility proxy (elasticsearch-compat-proxy.ts)', () => {
    let proxy: ElasticsearchCompatProxy;
    let client: ElasticsearchClient;
    beforeAll(async () => {
      proxy = await startElasticsearchCompatProxy(searchUrl);
      client = new ElasticsearchClient({ node: proxy.url });
    });
    afterAll(async () => {
      await client.close();
      await proxy.stop();
    });

    it('creates an index with a mapping, bulk-indexes, and answers a filtered, sorted, paged search', async () => {
      const info = await client.info();
      // Still OpenSearch behind the proxy: only the two documented rewrites happen.
      expect(info.version.number).toMatch(/^2\.19\./);

      const index = uniqueIndexName('articles-es');
      await client.indices.create({ index, mappings: articleMapping, settings: { number_of_replicas: 0 } });
      const bulk = await client.bulk({ operations: bulkOperations(index), refresh: true });
      expect(bulk.errors).toBe(false);

      const pages = [];
      for (const page of [0, 1, 2]) {
        const result = await client.search<Article>({
          index,
          query: articleQuery,
          sort: articleSort,
          from: page * pageSize,
          size: pageSize,
        });
        pages.push({
          total: typeof result.hits.total === 'number' ? result.hits.total : result.hits.total?.value,
          slugs: result.hits.hits.map((hit) => hit._source?.slug),
        });
      }
      expect(pages).toEqual([expectedArticlePage(0), expectedArticlePage(1), expectedArticlePage(2)]);
      await client.indices.delete({ index });

      // Both rewrites were needed: bodies were sent with vendor media types (JSON and NDJSON),
      // and every response lacked the product header.
      expect(proxy.rewrites.contentType).toBeGreaterThanOrEqual(2);
      expect(proxy.rewrites.productHeader).toBeGreaterThanOrEqual(6);
    });
  });
});
