import type { RecsIndexWriter, RecsLedger, RecsReader, RecsTracking } from '@lectern/core';
import type { SearchEngine } from '@lectern/search-engine';
import { createIndexEnsurer, recsIndexNames } from './recs-index.ts';
import { createSearchRecsReader } from './search-recs-reader.ts';
import { createSearchRecsWriter } from './search-recs-writer.ts';

export { evaluateQuery, boostOf, type RecsFields } from './evaluate.ts';
export { filterDsl } from './query-dsl.ts';
export { scriptQuery } from './painless.ts';
export { recsIndexNames, entriesIndexBody } from './recs-index.ts';

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
 * The recommendation index on OpenSearch's k-NN plugin, beside the ledger on the store's database
 * (PostgreSQL keeps the entries, document frequencies and visits; see search-recs-writer.ts).
 */
export function createSearchRecs(options: {
  engine: SearchEngine;
  ledger: RecsLedger;
  prefix: string;
  dimensions: number;
}): OpenedRecs {
  const { engine, ledger, prefix, dimensions } = options;
  const names = recsIndexNames(prefix, dimensions);
  const ensure = createIndexEnsurer(engine, names, dimensions);
  return {
    writer: createSearchRecsWriter({ engine, names, ensure, sql: ledger.writer, dimensions }),
    reader: createSearchRecsReader({ engine, names, ledger }),
    tracking: ledger.tracking,
    description: `opensearch k-NN (lucene HNSW) in ${names.entries}`,
    async reset(projectId) {
      await ensure();
      await engine.deleteByQuery(names.entries, { term: { project_id: projectId } });
      await engine.deleteByQuery(names.watermarks, { ids: { values: [projectId] } });
      await ledger.reset(projectId);
    },
    ping: () => engine.ping(),
    close: () => engine.close(),
  };
}
