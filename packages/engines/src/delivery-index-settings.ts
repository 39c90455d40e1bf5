import { z } from 'zod';
import type { ConfigOf, Setting } from '@lectern/config';

/**
 * Which delivery index a cluster service reads or writes, and where the search engine is. The
 * cluster shape uses the search engine by default; `sql` keeps the index in PostgreSQL tables
 * (what the embedded shape always uses). Services that read or write the index add these rows.
 */
export const deliveryIndexSettings = {
  deliveryIndex: {
    env: 'LECTERN_DELIVERY_INDEX',
    schema: z.enum(['sql', 'opensearch', 'elasticsearch']),
    default: 'opensearch',
    doc:
      'Where the delivery index lives: opensearch (OpenSearch 2/3, @opensearch-project/opensearch), elasticsearch ' +
      '(Elasticsearch 9, @elastic/elasticsearch 9), or sql (PostgreSQL tables). Watermark and Sync feeds stay in PostgreSQL.',
  },
  searchUrl: {
    env: 'LECTERN_SEARCH_URL',
    schema: z.union([z.literal(''), z.string().url()]),
    default: '',
    isSecret: true,
    doc: 'Search engine URL (credentials may be in it), e.g. http://search:9200; needed unless LECTERN_DELIVERY_INDEX=sql.',
  },
  searchIndexPrefix: {
    env: 'LECTERN_SEARCH_INDEX_PREFIX',
    schema: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,100}$/, 'lowercase letters, digits, _ and - only'),
    default: 'lectern-delivery',
    doc: 'Start of every index and alias name (one index per project, behind the alias <prefix>-<project id>).',
  },
} satisfies Record<string, Setting<unknown>>;

export type DeliveryIndexConfig = ConfigOf<typeof deliveryIndexSettings>;
