import type { SearchEngine } from '@lectern/search-engine';

/**
 * The recommendation index in OpenSearch with the k-NN plugin: one shared index per embedding
 * dimension (`<prefix>-<dimensions>d`), a document per entry (project, item, language), its
 * embedding a `knn_vector` in a Lucene HNSW graph (cosine). The Lucene engine is pure Java, so it
 * needs none of the plugin's native faiss/nmslib libraries, and it applies a query's `filter`
 * while it walks the graph (exactly, by brute force, when few documents pass). The watermarks of
 * the index live beside it in `<prefix>-watermarks`.
 */
export interface RecsIndexNames {
  readonly entries: string;
  readonly watermarks: string;
}

export const recsIndexNames = (prefix: string, dimensions: number): RecsIndexNames => ({
  entries: `${prefix}-${dimensions}d`,
  watermarks: `${prefix}-watermarks`,
});

/** HNSW graph parameters: neighbours per node and the candidate list while building. */
const hnsw = { m: 16, ef_construction: 128 };

const keyword = { type: 'keyword' } as const;

export function entriesIndexBody(dimensions: number) {
  return {
    settings: { index: { knn: true, number_of_shards: 1, number_of_replicas: 0 } },
    mappings: {
      dynamic: 'strict',
      properties: {
        project_id: keyword,
        item_id: keyword,
        language: keyword,
        codename: keyword,
        name: keyword,
        type: keyword,
        lastupdated: { type: 'long' },
        properties: keyword,
        text: { type: 'text', analyzer: 'standard' },
        embedding: {
          type: 'knn_vector',
          dimension: dimensions,
          space_type: 'cosinesimil',
          method: { name: 'hnsw', engine: 'lucene', parameters: hnsw },
        },
      },
    },
  };
}

const watermarksBody = {
  settings: { index: { number_of_shards: 1, number_of_replicas: 0 } },
  mappings: { dynamic: 'strict', properties: { seq: { type: 'long' } } },
};

/** Creates the indices unless they exist (once per process). */
export function createIndexEnsurer(engine: SearchEngine, names: RecsIndexNames, dimensions: number) {
  let ensured: Promise<void> | null = null;
  return (): Promise<void> => {
    ensured ??= (async () => {
      await engine.createIndex(names.entries, entriesIndexBody(dimensions));
      await engine.createIndex(names.watermarks, watermarksBody);
    })().catch((error: unknown) => {
      ensured = null;
      throw error;
    });
    return ensured;
  };
}

export const entryId = (projectId: string, itemId: string, language: string) => `${projectId}:${itemId}:${language}`;
