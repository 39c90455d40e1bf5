import {
  candidatesFor,
  firstCandidates,
  halfPopularVisits,
  maxCandidates,
  searchVectorWeight,
  similarWeight,
  type RecommendQuery,
  type RecsLedger,
  type RecsReader,
  type SearchQuery,
} from '@lectern/core';
import type { SearchBody, SearchEngine, SearchHit } from '@lectern/search-engine';
import { boostOf, type RecsFields } from './evaluate.ts';
import { scriptQuery } from './painless.ts';
import { filterDsl, type Dsl } from './query-dsl.ts';
import type { RecsIndexNames } from './recs-index.ts';

/** Most popular items considered before the filter (the SQL reader filters first). */
const popularPool = 1000;

type Doc = RecsFields & { readonly language: string };

/** The entry fields read from doc values (columnar: no `_source`, whose embedding is large, is loaded). */
const fields = ['codename', 'name', 'type', 'lastupdated', 'properties', 'language'];

type Hit = SearchHit<never>;

function docOf(hit: Hit): Doc {
  const f = hit.fields ?? {};
  const first = (name: string) => f[name]?.[0];
  return {
    codename: String(first('codename') ?? ''),
    name: String(first('name') ?? ''),
    type: String(first('type') ?? ''),
    language: String(first('language') ?? ''),
    lastupdated: Number(first('lastupdated') ?? 0),
    properties: (f['properties'] ?? []).map(String),
  };
}

/** A search returning the entry fields of its hits. */
const fetching = (body: Omit<SearchBody, '_source' | 'docvalue_fields'> & Record<string, unknown>): SearchBody => ({
  ...body,
  _source: false,
  docvalue_fields: fields,
});

interface Candidate {
  readonly doc: Doc;
  readonly similarity: number;
}

/**
 * Reads the k-NN recommendation index in two rounds per request. First, from PostgreSQL (which
 * keeps the entries too), the current item's embedding and the most popular items. Then one
 * multi-search, each part restricted by project, type, the current item and the filter (compiled
 * to the query DSL): the nearest neighbours of the current item (a `knn` query whose `filter` the
 * Lucene engine applies inside the graph search, so the limit counts only items that pass), the
 * popular items with their exact similarity to the current one (the k-NN plugin's `knn_score`
 * script) and, when there is no current item to be near, the most recent. The candidates are
 * then scored as the SQL reader scores them, in this process.
 */
export function createSearchRecsReader(options: {
  engine: SearchEngine;
  names: RecsIndexNames;
  ledger: RecsLedger;
}): RecsReader {
  const { engine, names, ledger } = options;
  /** A call, once more after 100 ms when a shard is not started yet (the writer has just created the index: 503). */
  const retried = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if ((error as { meta?: { statusCode?: number } }).meta?.statusCode !== 503) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return call();
    }
  };
  const msearch = (bodies: readonly SearchBody[]): Promise<Hit[][]> =>
    retried(async () => (await engine.msearch<never>(names.entries, bodies)).map((a) => [...a.hits.hits]));
  /** Hits with the scores of their named queries. */
  const searchNamed = (body: SearchBody): Promise<Hit[]> =>
    retried(async () => [...(await engine.search<never>(names.entries, body, { namedQueryScores: true })).hits.hits]);
  const knn = (vector: readonly number[], k: number, filter: Dsl) => ({
    knn: { embedding: { vector, k, filter } },
  });
  /** Scores the query's hits by exact similarity to the vector, on the scale of `knn` scores. */
  const similarTo = (vector: readonly number[], query: Dsl) => ({
    script_score: {
      query,
      script: {
        lang: 'knn',
        source: 'knn_score',
        params: { field: 'embedding', query_value: vector, space_type: 'cosinesimil' },
      },
    },
  });

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

  const popularity = (projectId: string, at: Date) => ledger.popularity(projectId, at, popularPool);

  const none = fetching({ query: { match_none: {} }, size: 0 });

  /**
   * Up to `k` candidates from each source in one multi-search: the nearest neighbours of the
   * current item, the most popular (ranked by a Painless script over the popularity the caller
   * read, then rescored by their exact similarity to the current item) and, without a current
   * item, the most recent. With a current item, the nearest neighbours that pass hold every item
   * the recent ones could add (those rank below them); without one, every similarity is 0 and the
   * most recent fill the answer. `isExhausted`: a larger `k` could find no more.
   */
  async function candidates(o: {
    q: RecommendQuery;
    filter: Dsl;
    current: readonly number[] | null;
    popular: ReadonlyMap<string, number>;
    k: number;
  }): Promise<{ candidates: Candidate[]; isExhausted: boolean }> {
    const { q, filter, current, popular, k } = o;
    const byPopularity = {
      script_score: {
        query: { bool: { filter: [filter, { terms: { codename: [...popular.keys()] } }] } },
        script: {
          source: "params.p.getOrDefault(doc['codename'].value, 0.0)",
          params: { p: Object.fromEntries(popular) },
        },
      },
    };
    const [near = [], popularHits = [], recent = []] = await msearch([
      current === null ? none : fetching({ query: knn(current, k, filter), size: k }),
      popular.size === 0
        ? none
        : fetching({
            query: byPopularity,
            size: k,
            ...(current === null
              ? {}
              : {
                  rescore: {
                    window_size: k,
                    query: { rescore_query: similarTo(current, { match_all: {} }), query_weight: 0 },
                  },
                }),
          }),
      ...(current === null ? [fetching({ query: filter, sort: [{ lastupdated: 'desc' }], size: q.limit })] : []),
    ]);
    const found = new Map<string, Candidate>();
    for (const hit of near) found.set(hit._id, { doc: docOf(hit), similarity: hit._score ?? 0 });
    for (const hit of popularHits)
      if (!found.has(hit._id))
        found.set(hit._id, { doc: docOf(hit), similarity: current === null ? 0 : (hit._score ?? 0) });
    for (const hit of recent) if (!found.has(hit._id)) found.set(hit._id, { doc: docOf(hit), similarity: 0 });
    return { candidates: [...found.values()], isExhausted: near.length < k && popularHits.length < k };
  }

  return {
    termStats: (o) => ledger.termStats(o),

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
      const [current, popular] = await Promise.all([
        q.scenario === 'popular' ? null : ledger.embeddingOf(q.projectId, q.currentItemCodename),
        q.scenario === 'similar' ? new Map<string, number>() : popularity(q.projectId, new Date(q.nowMs)),
      ]);
      const score = (doc: Doc, similarity: number) => {
        const pop = popular.get(doc.codename) ?? 0;
        const value =
          q.scenario === 'similar'
            ? similarity
            : q.scenario === 'popular'
              ? pop
              : similarWeight * similarity + (1 - similarWeight) * (pop / (pop + halfPopularVisits));
        return value * boostOf(q.booster, doc, q.nowMs);
      };
      // Few candidates first (see `firstCandidates`), more when they leave fewer distinct codenames
      // than the limit.
      for (let k = firstCandidates(q, current !== null); ; k *= 4) {
        const some = await candidates({ q, filter, current, popular, k: Math.min(k, maxCandidates) });
        const found = best(
          some.candidates.map(({ doc, similarity }) => ({ doc, score: score(doc, similarity) })),
          q.limit,
        );
        if (found.length >= q.limit || some.isExhausted || k >= maxCandidates) return found;
      }
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
      const words = (query: Record<string, unknown>) => ({
        match: { text: { query: text, _name: 'words', ...query } },
      });
      // One round of two searches, each hit with its BM25 for the words (the named query's score)
      // and its similarity (the rest of its score): the nearest neighbours, plus BM25 for any word;
      // and the items holding every word (BM25 the same for any word, as all match), best first,
      // rescored by similarity added to it.
      const [near, lexical] = await Promise.all([
        searchNamed(
          fetching({
            query: { bool: { must: [knn(q.embedding, k, scope)], ...(text === '' ? {} : { should: [words({})] }) } },
            size: k,
          }),
        ),
        text === ''
          ? []
          : searchNamed(
              fetching({
                query: { bool: { filter: [scope], must: [words({ operator: 'and' })] } },
                size: k,
                rescore: {
                  window_size: k,
                  query: { rescore_query: similarTo(q.embedding, { match_all: {} }), query_weight: 1 },
                },
              }),
            ),
      ]);
      const scored = [...near, ...lexical].map((hit) => {
        const named = hit.matched_queries;
        const bm25 =
          named !== undefined && !Array.isArray(named) ? ((named as Record<string, number>)['words'] ?? 0) : 0;
        const similarity = (hit._score ?? 0) - bm25;
        // BM25 scores are unbounded: s / (s + 1) maps them into [0, 1) as ts_rank_cd's normalization 32 does.
        return {
          doc: docOf(hit),
          score: searchVectorWeight * similarity + (1 - searchVectorWeight) * (bm25 / (bm25 + 1)),
        };
      });
      return best(scored, q.limit);
    },
  };
}
