import { sql, type Kysely } from 'kysely';
import type { RecommendQuery, RecsReader, SearchQuery } from '@lectern/core';
import type { SearchEngine } from '@lectern/index-elasticsearch';
import { popularitySql, sqlTermStats } from '@lectern/recs-sql';
import { boostOf, type RecsFields } from './evaluate.ts';
import { scriptQuery } from './painless.ts';
import { filterDsl, type Dsl } from './query-dsl.ts';
import type { RecsIndexNames } from './recs-index.ts';

/** Visits at which an item's popularity counts half in the `default` blend (as the SQL reader). */
const halfPopularVisits = 3;
const similarWeight = 0.6;
const searchVectorWeight = 0.5;
/** Most popular items considered before the filter (the SQL reader filters first). */
const popularPool = 1000;

/** Candidates per source: enough that the booster and the language de-duplication can reorder. */
const candidatesFor = (limit: number, isBoosted: boolean) => Math.max(isBoosted ? 200 : 50, limit * 4);

type Doc = RecsFields & { readonly language: string };
interface Hit {
  readonly _id: string;
  readonly _score?: number | null;
  readonly _source?: Doc;
}
const fields = ['codename', 'name', 'type', 'lastupdated', 'properties', 'language'];

interface Candidate {
  readonly doc: Doc;
  similarity: number;
}

/**
 * Reads the k-NN recommendation index. Candidates come from the engine, each source restricted by
 * project, type, the current item and the filter (compiled to the query DSL): the nearest
 * neighbours of the current item (a `knn` query whose `filter` the Lucene engine applies inside
 * the graph search, so the limit counts only items that pass), the most recent items and — from
 * PostgreSQL's popularity table — the most popular. Candidates that did not come from the vector
 * search get their similarity from a second k-NN query restricted to them (exact at that size).
 * They are then scored as the SQL reader scores them, in this process.
 */
export function createSearchRecsReader(options: {
  engine: SearchEngine;
  names: RecsIndexNames;
  db: Kysely<unknown>;
}): RecsReader {
  const { engine, names, db } = options;
  const search = async (body: object, isRetry = false): Promise<Hit[]> => {
    try {
      return [...(await engine.search<Doc>(names.entries, body as never)).hits.hits] as Hit[];
    } catch (error) {
      // A shard not started yet (the writer has just created the index) answers 503: once more.
      if (isRetry || (error as { meta?: { statusCode?: number } }).meta?.statusCode !== 503) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return search(body, true);
    }
  };
  const knn = (vector: readonly number[], k: number, filter: Dsl) => ({
    knn: { embedding: { vector, k, filter } },
  });

  const currentEmbedding = async (q: RecommendQuery): Promise<number[] | null> => {
    const found = await engine.search<{ embedding: number[] }>(names.entries, {
      query: {
        bool: { filter: [{ term: { project_id: q.projectId } }, { term: { codename: q.currentItemCodename } }] },
      },
      sort: [{ language: 'asc' }],
      size: 1,
      _source: ['embedding'],
    });
    return found.hits.hits[0]?._source?.embedding ?? null;
  };

  /** Similarities of the candidates no vector search returned (cosine, as (1 + cos) / 2). */
  async function fillSimilarity(
    candidates: Map<string, Candidate>,
    vector: readonly number[] | null,
    known: Set<string>,
  ) {
    const missing = [...candidates.keys()].filter((id) => !known.has(id));
    if (vector === null || missing.length === 0) return;
    for (const hit of await search({
      query: knn(vector, missing.length, { ids: { values: missing } }),
      size: missing.length,
      _source: false,
    }))
      candidates.get(hit._id)!.similarity = hit._score ?? 0;
  }

  function best(scored: { doc: Doc; score: number }[], limit: number): string[] {
    const byCodename = new Map<string, { score: number; lastupdated: number }>();
    for (const { doc, score } of scored) {
      const seen = byCodename.get(doc.codename);
      if (!seen || score > seen.score)
        byCodename.set(doc.codename, { score, lastupdated: Math.max(doc.lastupdated, seen?.lastupdated ?? 0) });
      else seen.lastupdated = Math.max(seen.lastupdated, doc.lastupdated);
    }
    return [...byCodename.entries()]
      .sort(([a, x], [b, y]) => y.score - x.score || y.lastupdated - x.lastupdated || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, limit)
      .map(([codename]) => codename);
  }

  async function popularity(projectId: string, at: Date): Promise<Map<string, number>> {
    const rows = await sql<{ codename: string; score: number }>`
      select p.codename, ${popularitySql({ alias: 'p', at })} as score from recs_popularity p
      where p.project_id = ${projectId} order by 2 desc limit ${popularPool}`.execute(db);
    return new Map(rows.rows.map((r) => [r.codename, Number(r.score)]));
  }

  return {
    termStats: (o) => sqlTermStats(db, o),

    async recommend(q) {
      const filter: Dsl = {
        bool: {
          filter: [
            { term: { project_id: q.projectId } },
            { term: { type: q.requestedType } },
            ...(q.filter
              ? [filterDsl(q.filter, { nowMs: q.nowMs, script: (n) => scriptQuery(n, { nowMs: q.nowMs }) })]
              : []),
          ],
          must_not: [{ term: { codename: q.currentItemCodename } }],
        },
      };
      const k = candidatesFor(q.limit, q.booster !== null);
      const at = new Date(q.nowMs);
      const [current, popular] = await Promise.all([
        q.scenario === 'popular' ? null : currentEmbedding(q),
        q.scenario === 'similar' ? new Map<string, number>() : popularity(q.projectId, at),
      ]);
      const popularCodenames = [...popular.keys()];
      // `similar` from a known item: the nearest neighbours that pass are the answer (the SQL
      // reader's recent candidates rank below them), unless a booster may lift others past them.
      const isNearEnough = q.scenario === 'similar' && current !== null && q.booster === null;
      const [recent, near, popularHits] = await Promise.all([
        isNearEnough ? [] : search({ query: filter, sort: [{ lastupdated: 'desc' }], size: q.limit, _source: fields }),
        current ? search({ query: knn(current, k, filter), size: k, _source: fields }) : [],
        popularCodenames.length === 0
          ? []
          : search({
              query: { bool: { filter: [filter, { terms: { codename: popularCodenames } }] } },
              size: Math.min(10_000, popularCodenames.length * 4),
              _source: fields,
            }),
      ]);
      const candidates = new Map<string, Candidate>();
      for (const hit of near) candidates.set(hit._id, { doc: hit._source!, similarity: hit._score ?? 0 });
      const topPopular = popularHits
        .sort((a, b) => (popular.get(b._source!.codename) ?? 0) - (popular.get(a._source!.codename) ?? 0))
        .slice(0, k);
      for (const hit of [...recent, ...topPopular])
        if (!candidates.has(hit._id)) candidates.set(hit._id, { doc: hit._source!, similarity: 0 });
      await fillSimilarity(candidates, current, new Set(near.map((h) => h._id)));
      const scored = [...candidates.values()].map(({ doc, similarity }) => {
        const pop = popular.get(doc.codename) ?? 0;
        const score =
          q.scenario === 'similar'
            ? similarity
            : q.scenario === 'popular'
              ? pop
              : similarWeight * similarity + (1 - similarWeight) * (pop / (pop + halfPopularVisits));
        return { doc, score: score * boostOf(q.booster, doc, q.nowMs) };
      });
      return best(scored, q.limit);
    },

    async search(q: SearchQuery) {
      const k = candidatesFor(q.limit, false);
      const scope: Dsl = {
        bool: {
          filter: [
            { term: { project_id: q.projectId } },
            ...(q.requestedType === null ? [] : [{ term: { type: q.requestedType } }]),
          ],
        },
      };
      const text = q.text.trim();
      const [near, lexical] = await Promise.all([
        search({ query: knn(q.embedding, k, scope), size: k, _source: fields }),
        text === ''
          ? []
          : search({
              query: { bool: { filter: [scope], must: [{ match: { text: { query: text, operator: 'and' } } }] } },
              size: k,
              _source: fields,
            }),
      ]);
      const candidates = new Map<string, Candidate>();
      for (const hit of near) candidates.set(hit._id, { doc: hit._source!, similarity: hit._score ?? 0 });
      for (const hit of lexical)
        if (!candidates.has(hit._id)) candidates.set(hit._id, { doc: hit._source!, similarity: 0 });
      const ids = [...candidates.keys()];
      const [, relevance] = await Promise.all([
        fillSimilarity(candidates, q.embedding, new Set(near.map((h) => h._id))),
        text === ''
          ? []
          : search({
              query: { bool: { filter: [{ ids: { values: ids } }], should: [{ match: { text } }] } },
              size: ids.length,
              _source: false,
            }),
      ]);
      // BM25 scores are unbounded: s / (s + 1) maps them into [0, 1) as ts_rank_cd's normalization 32 does.
      const lexicalOf = new Map(relevance.map((h) => [h._id, (h._score ?? 0) / ((h._score ?? 0) + 1)]));
      const scored = [...candidates.entries()].map(([id, { doc, similarity }]) => ({
        doc,
        score: searchVectorWeight * similarity + (1 - searchVectorWeight) * (lexicalOf.get(id) ?? 0),
      }));
      return best(scored, q.limit);
    },
  };
}
