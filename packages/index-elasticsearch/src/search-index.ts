import {
  composeDeliveryIndex,
  type DeliveryDocuments,
  type DeliveryIndex,
  type DeliveryIndexLedger,
  type IndexedVariant,
  type ItemQueryResult,
  type ReadPin,
} from '@lectern/core';
import type { SearchEngine, SearchHit } from '@lectern/search-engine';
import { createCommitLog } from './commit-log.ts';
import { planWrite } from './engine-writer.ts';
import { itemQuery, itemSort, visibleAt } from './query-builder.ts';
import { createProjectIndices } from './project-indices.ts';
import { scan as scanHits, type ScanOptions } from './scan.ts';

/** The delivery index on a search engine: the reader Delivery uses and the writer the indexer uses. */
export interface SearchDeliveryIndex extends DeliveryIndex {
  /** Drops the indices of a project (tests, project deletion). */
  dropProject(projectId: string): Promise<void>;
  /** Resolves when the sweep of superseded versions under way (if any) has finished. */
  sweeping(): Promise<void>;
}

export interface SearchIndexOptions {
  readonly engine: SearchEngine;
  /** The watermark, Sync feeds and model documents (PostgreSQL: store-sql's `createIndexLedger`). */
  readonly ledger: DeliveryIndexLedger;
  /** Index names start with it (lowercase). Default `lectern-delivery`. */
  readonly prefix?: string;
  /** How long a superseded version stays for readers pinned to an older watermark. Default 60 s. */
  readonly archiveGraceMs?: number;
  readonly now?: () => number;
  /** Hits one search may reach before paging by `search_after` (tests make it small). Default 10,000. */
  readonly resultWindow?: number;
  /** A background sweep of superseded versions failed (the next batch retries it). */
  readonly onSweepError?: (error: unknown) => void;
}

const bodies = (hits: readonly SearchHit<{ body: string }>[]) =>
  hits.flatMap((h) => (h._source ? [JSON.parse(h._source.body) as IndexedVariant] : []));
/** What readers fetch of a hit: the Delivery JSON only. */
const bodyOnly = { source: ['body'] } as const;

/**
 * Builds the index. Documents live in the engine, one index per project behind an alias, each
 * document version visible from the sequence that wrote it until the one that superseded it;
 * every read is pinned to the watermark in PostgreSQL, so a reader never sees a document newer
 * than the watermark, and a document of a batch is visible (refreshed) before its watermark moves.
 */
export function createSearchIndex(options: SearchIndexOptions): SearchDeliveryIndex {
  const { engine, ledger } = options;
  const now = options.now ?? Date.now;
  const grace = options.archiveGraceMs ?? 60_000;
  const window = options.resultWindow;
  const scan = <T>(index: string, o: ScanOptions) =>
    scanHits<T>(engine, index, window === undefined ? o : { ...o, window });
  const indices = createProjectIndices({ engine, prefix: options.prefix ?? 'lectern-delivery', now });
  const lastSweeps = new Map<string, number>();
  const commits = createCommitLog();
  let sweeps: Promise<void> = Promise.resolve();

  /**
   * Deletes the project's versions superseded by a watermark this process committed longer ago
   * than the grace time, at most once per half of it, behind the batch that asked: a delete by
   * query took up to a few hundred ms on a busy machine, and awaited in `apply` it
   * delayed the next batch's visibility (the publish → visible p99). The grace time counts from
   * the commit that made a version superseded, not from when its mark was written (a long
   * re-render writes the marks of its first parts minutes before its last part commits): so a
   * reader holding a watermark that was current less than the grace time ago (a `ReadPin`) still
   * finds every version visible at it. Sweeps run one at a time; a failed one is retried after
   * the next batch.
   */
  function sweep(projectId: string): void {
    const at = now();
    if (at - (lastSweeps.get(projectId) ?? 0) < grace / 2) return;
    const due = commits.committedBefore(projectId, at - grace);
    if (due === null) return;
    lastSweeps.set(projectId, at);
    sweeps = sweeps.then(() =>
      // No refresh of its own: no reader's watermark sees these versions, so they may stay
      // searchable until the next batch's refresh (a refresh of its own was one more segment,
      // made while a publish might be waiting for its own refresh).
      engine
        .deleteByQuery(indices.alias(projectId), { range: { until: { lte: due } } }, { refresh: false })
        .catch((error: unknown) => {
          lastSweeps.delete(projectId);
          options.onSweepError?.(error);
        }),
    );
  }

  /**
   * The watermark to read at: the pin's while it is younger than half the grace time (its
   * versions are still there, see `sweep`), else the current one, read now.
   */
  async function pinFor(projectId: string, pin: ReadPin | undefined): Promise<ReadPin> {
    const at = now();
    if (pin !== undefined && at >= pin.readAt && at - pin.readAt < grace / 2) return pin;
    return { watermark: await ledger.watermark(projectId), readAt: at };
  }

  const reads: Pick<DeliveryDocuments, 'queryItems' | 'itemsByCodename' | 'usedIn' | 'isRebuilding'> = {
    isRebuilding: (projectId) => indices.isRebuilding(projectId),

    async queryItems(query): Promise<ItemQueryResult> {
      if (query.languages.length === 0) return { items: [], totalCount: query.isTotalCountNeeded ? 0 : null };
      const pin = await pinFor(query.projectId, query.pin);
      const found = await scan<{ body: string }>(indices.alias(query.projectId), {
        query: itemQuery({ ...query, watermark: pin.watermark }),
        sort: itemSort(query.order, query.thenBy),
        ...bodyOnly,
        skip: query.skip,
        limit: query.limit,
        isTotalCountNeeded: query.isTotalCountNeeded,
      });
      return { items: bodies(found.hits), totalCount: found.total, pin };
    },

    async itemsByCodename(o) {
      if (o.codenames.length === 0 || o.languages.length === 0) return [];
      // One terms query on the codenames (a multi-get by id could not honour the watermark), at
      // the watermark of the list these items are linked from when it is given.
      const { watermark } = await pinFor(o.projectId, o.pin);
      const found = await scan<{ body: string }>(indices.alias(o.projectId), {
        query: itemQuery({ ...o, filters: [], watermark }),
        sort: itemSort(null),
        ...bodyOnly,
        limit: o.codenames.length,
      });
      return bodies(found.hits);
    },

    async usedIn(o) {
      const watermark = await ledger.watermark(o.projectId);
      const link =
        'itemCodename' in o.target ? { term: { uses: o.target.itemCodename } } : { term: { assets: o.target.assetId } };
      const found = await scan<{ body: string }>(indices.alias(o.projectId), {
        query: {
          bool: {
            filter: [{ term: { project: o.projectId } }, { term: { channel: o.channel } }, visibleAt(watermark), link],
          },
        },
        sort: [{ codename: 'asc' }, { language: 'asc' }],
        ...bodyOnly,
      });
      return bodies(found.hits);
    },
  };

  /** Item ids of the current versions in the index the writer writes to matching `query`. */
  async function currentItemIds(projectId: string, query: object): Promise<string[]> {
    const found = await scan<{ item_id: string }>(await indices.writeTarget(projectId), {
      query: {
        bool: { filter: [{ term: { project: projectId } }, query], must_not: [{ exists: { field: 'until' } }] },
      },
      sort: [{ item_id: 'asc' }, { channel: 'asc' }, { language: 'asc' }, { from: 'asc' }],
      source: ['item_id'],
    });
    return [...new Set(found.hits.flatMap((h) => (h._source ? [h._source.item_id] : [])))];
  }

  const writes: Omit<DeliveryDocuments, keyof typeof reads> = {
    indexedItemIds: (projectId) => currentItemIds(projectId, { match_all: {} }),
    async dependents(o) {
      if (o.itemIds.length === 0 && o.assetIds.length === 0) return [];
      return currentItemIds(o.projectId, {
        bool: {
          should: [
            ...(o.itemIds.length === 0 ? [] : [{ terms: { dep: o.itemIds } }]),
            ...(o.assetIds.length === 0 ? [] : [{ terms: { assets: o.assetIds } }]),
          ],
          minimum_should_match: 1,
        },
      });
    },

    async apply(batch) {
      const { projectId } = batch;
      const isRebuild = indices.isRebuilding(projectId);
      const index = await indices.writeTarget(projectId);
      const result = await ledger.commit({
        batch,
        isRebuild,
        write: async (watermark) => {
          if (!isRebuild && watermark >= batch.toSeq) return null;
          // A rebuild writes into a fresh index: nothing in it is visible yet.
          const at = isRebuild ? 0 : watermark;
          const plan = await planWrite({
            engine,
            index,
            batch,
            watermark: at,
            now: now(),
            ...(window === undefined ? {} : { window }),
          });
          await engine.bulk(plan.operations, { refresh: true });
          return { changes: plan.changes, result: plan.written };
        },
      });
      if (result === null) return false;
      if (!batch.isPartial && !isRebuild) commits.record(projectId, now(), batch.toSeq);
      if (!batch.isPartial) {
        if (isRebuild) {
          commits.forget(projectId);
          await indices.finishRebuild(projectId);
        } else sweep(projectId);
      }
      return true;
    },

    async reset(projectId) {
      await indices.startRebuild(projectId);
    },
  };

  return {
    ...composeDeliveryIndex({ ledger, documents: { ...reads, ...writes } }),
    sweeping: () => sweeps,
    async dropProject(projectId) {
      await sweeps;
      commits.forget(projectId);
      await indices.drop(projectId);
      await ledger.clear(projectId);
    },
  };
}
