import { z } from 'zod';
import type { ConfigOf, Setting } from '@lectern/config';
import { deliveryIndexSettings } from './delivery-index-settings.ts';

/**
 * Where the cluster keeps the recommendation index (issue 16). `auto`: OpenSearch's k-NN when the
 * delivery index is in OpenSearch (LECTERN_DELIVERY_INDEX=opensearch, LECTERN_SEARCH_URL set),
 * else PostgreSQL. The
 * indexer (which writes it) and the Recommendations service (which reads it) take the same rows.
 */
export const recsIndexSettings = {
  deliveryIndex: deliveryIndexSettings.deliveryIndex,
  searchUrl: deliveryIndexSettings.searchUrl,
  recsIndex: {
    env: 'LECTERN_RECS_INDEX',
    schema: z.enum(['auto', 'opensearch', 'sql']),
    default: 'auto',
    doc:
      'Where the recommendation index lives: opensearch (k-NN plugin, Lucene HNSW, at LECTERN_SEARCH_URL), sql ' +
      '(PostgreSQL: pgvector when installed, else exact cosine over real[]), or auto (opensearch when ' +
      'LECTERN_DELIVERY_INDEX is opensearch and LECTERN_SEARCH_URL is set, else sql). PostgreSQL keeps the ' +
      'entries and visits either way, so a reader on sql sees what a k-NN writer wrote.',
  },
  recsIndexPrefix: {
    env: 'LECTERN_RECS_INDEX_PREFIX',
    schema: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,100}$/, 'lowercase letters, digits, _ and - only'),
    default: 'lectern-recs',
    doc: 'Start of the k-NN recommendation index names (<prefix>-<dimensions>d, <prefix>-watermarks).',
  },
} satisfies Record<string, Setting<unknown>>;

export type RecsIndexConfig = ConfigOf<typeof recsIndexSettings>;
