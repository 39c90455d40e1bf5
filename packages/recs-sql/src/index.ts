import type { Kysely } from 'kysely';
import type { RecsIndexWriter, RecsReader, RecsTracking } from '@lectern/core';
import type { Database } from '@lectern/store-sql';
import { createSqlRecsReader } from './sql-recs-reader.ts';
import { createSqlRecsTracking } from './sql-tracking.ts';
import { createSqlRecsWriter } from './sql-recs-writer.ts';
import { detectVectorSql } from './vector-sql.ts';

export { querySql } from './query-sql.ts';
export { resetSqlRecsProject } from './sql-recs-writer.ts';
export { createSqlRecsTracking } from './sql-tracking.ts';
export { createSqlRecsLedger } from './sql-recs-ledger.ts';

export interface SqlRecs {
  readonly writer: RecsIndexWriter;
  readonly reader: RecsReader;
  readonly tracking: RecsTracking;
  /** True when embeddings are pgvector `vector`s, false for the `real[]` fallback. */
  readonly isPgvector: boolean;
}

/**
 * The recommendation engine's storage on the store's database (`SqlStore.db`, migrated): the
 * index writer, the reader the API queries and visit tracking.
 */
export async function createSqlRecs(options: { db: Kysely<Database> }): Promise<SqlRecs> {
  const db = options.db as unknown as Kysely<unknown>;
  const vectors = await detectVectorSql(db);
  return {
    writer: createSqlRecsWriter({ db, vectors }),
    reader: createSqlRecsReader({ db, vectors }),
    tracking: createSqlRecsTracking({ db }),
    isPgvector: vectors.isPgvector,
  };
}
export {
  corpusPersonas,
  corpusTopics,
  generateCorpus,
  topicVocabularies,
  writeArticle,
  writeCorpus,
  type CorpusItem,
} from './corpus.ts';
export { EmbeddingModelError, readModelFiles, type ModelFiles, type Pooling } from './embedding/model-files.ts';
export {
  defaultModelDir,
  modelDirOf,
  openEmbedder,
  recsEmbeddingSettings,
  type RecsEmbeddingConfig,
} from './embedding/embedding-settings.ts';
export { resetOnProviderChange } from './embedding/provider-switch.ts';
