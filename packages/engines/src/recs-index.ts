import type { Kysely } from 'kysely';
import { createSearchRecs, type OpenedRecs } from '@lectern/recs-search';
import { createSqlRecs, createSqlRecsLedger, resetSqlRecsProject } from '@lectern/recs-sql';
import { connectSearchEngine, type SearchEngine } from '@lectern/search-engine';
import type { Database } from '@lectern/store-sql';
import type { RecsIndexConfig } from './recs-index-settings.ts';

/**
 * Whether the settings put the recommendation index in OpenSearch. `auto` needs the search URL
 * too: a process given none reads the SQL copy, which the k-NN writer keeps as well.
 */
export const isSearchRecs = (config: RecsIndexConfig) =>
  config.recsIndex === 'opensearch' ||
  (config.recsIndex === 'auto' && config.deliveryIndex === 'opensearch' && config.searchUrl !== '');

/** The k-NN recommendation index on `engine`, beside its ledger on the store's database. */
export async function openSearchRecs(options: {
  engine: SearchEngine;
  db: Kysely<Database>;
  prefix: string;
  dimensions: number;
}): Promise<OpenedRecs> {
  const { engine, prefix, dimensions } = options;
  return createSearchRecs({ engine, ledger: await createSqlRecsLedger({ db: options.db }), prefix, dimensions });
}

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
  return openSearchRecs({ engine, db, prefix: config.recsIndexPrefix, dimensions: options.dimensions });
}
