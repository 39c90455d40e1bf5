import type { Kysely } from 'kysely';
import type { RecsIndexWriter, RecsReader, RecsTracking } from '@lectern/core';
import { connectSearchEngine, type SearchEngine } from '@lectern/index-elasticsearch';
import { createSqlRecs, resetSqlRecsProject } from '@lectern/recs-sql';
import type { Database } from '@lectern/store-sql';
import { createIndexEnsurer, recsIndexNames } from './recs-index.ts';
import { createSearchRecsReader } from './search-recs-reader.ts';
import { createSearchRecsWriter } from './search-recs-writer.ts';
import type { RecsIndexConfig } from './settings.ts';

export { evaluateQuery, boostOf, type RecsFields } from './evaluate.ts';
export { filterDsl } from './query-dsl.ts';
export { scriptQuery } from './painless.ts';
export { recsIndexNames, entriesIndexBody } from './recs-index.ts';
export { recsIndexSettings, type RecsIndexConfig } from './settings.ts';

export interface OpenedRecs {
  readonly writer: RecsIndexWriter;
  readonly reader: RecsReader;
  readonly tracking: RecsTracking;
  /** For logs: `sql (pgvector)`, `sql (real[])` or `opensearch k-NN at <index>`. */
  readonly description: string;
  /** Drops the project's entries and watermark (visits stay): its next catch-up re-renders every item. */
  reset(projectId: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The recommendation index on OpenSearch's k-NN plugin, beside the SQL tables on the store's
 * database (PostgreSQL keeps the entries, document frequencies and visits; see search-recs-writer.ts).
 */
export async function createSearchRecs(options: {
  engine: SearchEngine;
  db: Kysely<Database>;
  prefix: string;
  dimensions: number;
}): Promise<OpenedRecs> {
  const { engine, prefix, dimensions } = options;
  const db = options.db as unknown as Kysely<unknown>;
  const sqlRecs = await createSqlRecs({ db: options.db });
  const names = recsIndexNames(prefix, dimensions);
  const ensure = createIndexEnsurer(engine, names, dimensions);
  return {
    writer: createSearchRecsWriter({ engine, names, ensure, sql: sqlRecs.writer, dimensions }),
    reader: createSearchRecsReader({ engine, names, db }),
    tracking: sqlRecs.tracking,
    description: `opensearch k-NN (lucene HNSW) in ${names.entries}`,
    async reset(projectId) {
      await ensure();
      await engine.deleteByQuery(names.entries, { term: { project_id: projectId } });
      await engine.deleteByQuery(names.watermarks, { ids: { values: [projectId] } });
      await resetSqlRecsProject(db, projectId);
    },
    ping: () => engine.ping(),
    close: () => engine.close(),
  };
}

/**
 * Whether the settings put the recommendation index in OpenSearch. `auto` needs the search URL
 * too: a process given none reads the SQL copy, which the k-NN writer keeps as well.
 */
export const isSearchRecs = (config: RecsIndexConfig) =>
  config.recsIndex === 'opensearch' ||
  (config.recsIndex === 'auto' && config.deliveryIndex === 'opensearch' && config.searchUrl !== '');

/** The recommendation index the settings choose (see `recsIndexSettings`), for embeddings of `dimensions`. */
export async function openRecsIndex(options: {
  config: RecsIndexConfig;
  db: Kysely<Database>;
  dimensions: number;
}): Promise<OpenedRecs> {
  const { config, db } = options;
  if (!isSearchRecs(config)) {
    const recs = await createSqlRecs({ db });
    return {
      ...recs,
      description: `sql (${recs.isPgvector ? 'pgvector' : 'real[]'})`,
      reset: (projectId) => resetSqlRecsProject(db as unknown as Kysely<unknown>, projectId),
      ping: async () => {},
      close: async () => {},
    };
  }
  if (config.searchUrl === '') throw new Error('LECTERN_SEARCH_URL is needed for the k-NN recommendation index');
  const engine = connectSearchEngine({ flavour: 'opensearch', url: config.searchUrl });
  await engine.ping();
  return createSearchRecs({ engine, db, prefix: config.recsIndexPrefix, dimensions: options.dimensions });
}
