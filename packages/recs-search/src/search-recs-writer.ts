import type { RecsBatch, RecsIndexWriter } from '@lectern/core';
import type { SearchEngine } from '@lectern/search-engine';
import { entryId, type createIndexEnsurer, type RecsIndexNames } from './recs-index.ts';

/** Entries per bulk request. */
const bulkChunk = 500;

/**
 * The writer side of the k-NN recommendation index. PostgreSQL stays the system of record (the
 * SQL writer keeps `recs_items`, the document frequencies the embedder weighs terms by, and the
 * re-render count); OpenSearch holds the searchable copy with its own watermark. A batch above
 * the OpenSearch watermark replaces its items' documents (deleted by query, then indexed, with a
 * refresh: a publish is recommendable when the batch is applied), then goes to the SQL writer
 * (which ignores it when it already has it), then moves the watermark. An index that starts
 * empty beside a filled SQL index (the setting switched) therefore has watermark 0, and the
 * recommendation consumer re-renders every project into it.
 */
export function createSearchRecsWriter(options: {
  engine: SearchEngine;
  names: RecsIndexNames;
  ensure: ReturnType<typeof createIndexEnsurer>;
  sql: RecsIndexWriter;
  dimensions: number;
}): RecsIndexWriter & { searchWatermark(projectId: string): Promise<number> } {
  const { engine, names, ensure, sql, dimensions } = options;
  const searchWatermark = async (projectId: string) => {
    await ensure();
    const found = await engine.search<{ seq: number }>(names.watermarks, {
      query: { ids: { values: [projectId] } },
      size: 1,
    });
    return Number(found.hits.hits[0]?._source?.seq ?? 0);
  };
  return {
    searchWatermark,
    watermark: searchWatermark,
    indexedItemIds: (projectId) => sql.indexedItemIds(projectId),
    termStats: (o) => sql.termStats(o),
    fullDocuments: (projectId) => sql.fullDocuments(projectId),
    async apply(batch: RecsBatch) {
      const { projectId } = batch;
      if (batch.toSeq <= (await searchWatermark(projectId))) return false;
      const itemIds = batch.items.map((i) => i.itemId);
      const entries = batch.items.flatMap((i) => i.entries);
      for (const e of entries)
        if (e.embedding.length !== dimensions)
          throw new Error(
            `embedding of ${e.codename} has ${e.embedding.length} dimensions; the index takes ${dimensions}`,
          );
      const operations = entries.flatMap((e) => [
        { index: { _index: names.entries, _id: entryId(projectId, e.itemId, e.language) } },
        {
          project_id: projectId,
          item_id: e.itemId,
          language: e.language,
          codename: e.codename,
          name: e.name,
          type: e.type,
          lastupdated: e.lastUpdated,
          properties: e.properties,
          text: e.text,
          embedding: e.embedding,
        },
      ]);
      // The deletes are shown by the refresh of the last bulk after them (it covers the entries
      // index's one shard): one refresh fewer a batch, each a segment the engine makes beside the
      // delivery index's writes. Deletes with nothing indexed after them refresh themselves.
      if (itemIds.length > 0)
        await engine.deleteByQuery(
          names.entries,
          { bool: { filter: [{ term: { project_id: projectId } }, { terms: { item_id: itemIds } }] } },
          { refresh: operations.length === 0 },
        );
      for (let start = 0; start < operations.length; start += 2 * bulkChunk)
        await engine.bulk(operations.slice(start, start + 2 * bulkChunk), {
          refresh: start + 2 * bulkChunk >= operations.length,
        });
      await sql.apply(batch);
      // Apart from the documents: a bulk request that failed in part may have applied some of its
      // operations, and the watermark must not move past documents that were not written.
      if (!batch.isPartial)
        await engine.bulk([{ index: { _index: names.watermarks, _id: projectId } }, { seq: batch.toSeq }], {
          refresh: true,
        });
      return true;
    },
  };
}
