import { sql, type Kysely, type RawBuilder } from 'kysely';
import { words, type RecommendQuery, type RecsReader, type SearchQuery } from '@lectern/core';
import { querySql } from './query-sql.ts';
import { popularitySql } from './sql-tracking.ts';
import { sqlTermStats } from './sql-recs-writer.ts';
import type { VectorSql } from './vector-sql.ts';

/** Visits at which an item's popularity counts half in the `default` blend. */
const halfPopularVisits = 3;
/** Weight of similarity in the `default` blend (popularity: the rest). */
const similarWeight = 0.6;
/** Weight of vector similarity in search (lexical relevance: the rest). */
const searchVectorWeight = 0.5;

/** The words of a search as a tsquery matching any of them. */
function anyWordQuery(text: string): string {
  const terms = words(text)
    .flatMap((w) => w.split(/[^\p{L}\p{N}]+/u))
    .filter((w) => w.length > 1);
  return [...new Set(terms)].map((t) => `'${t}'`).join(' | ');
}

/**
 * Reads the recommendation index with one statement per request. The filter is part of the
 * statement's WHERE clause and the booster multiplies the score inside it, so the limit applies
 * to items that pass the filter; entries of several languages of one item count once (its best).
 */
export function createSqlRecsReader(options: { db: Kysely<unknown>; vectors: VectorSql }): RecsReader {
  const { db, vectors } = options;
  const best = async (inner: RawBuilder<unknown>, limit: number) => {
    const result = await sql<{ codename: string }>`
      select codename from (${inner}) s
      group by codename
      order by max(score) desc, max(lastupdated) desc, codename
      limit ${limit}`.execute(db);
    return result.rows.map((r) => r.codename);
  };
  return {
    termStats: (o) => sqlTermStats(db, o),
    recommend(q: RecommendQuery) {
      const filter = q.filter ? querySql(q.filter, { nowMs: q.nowMs }) : sql`true`;
      const booster = q.booster ? sql`greatest(coalesce(${querySql(q.booster, { nowMs: q.nowMs })}, 0), 0)` : sql`1`;
      const similarity = sql`coalesce(1 - ${vectors.distance(sql`r.embedding`, sql`cur.embedding`)} / 2, 0)`;
      const popularity = popularitySql({ alias: 'p', at: new Date(q.nowMs) });
      const score =
        q.scenario === 'similar'
          ? similarity
          : q.scenario === 'popular'
            ? popularity
            : sql`(${similarWeight} * ${similarity} + ${1 - similarWeight} * ${popularity} / (${popularity} + ${halfPopularVisits}))`;
      return best(
        sql`
          select r.codename, r.lastupdated, ${score} * ${booster} as score
          from recs_items r
          left join (select embedding, embedder from recs_items
                     where project_id = ${q.projectId} and codename = ${q.currentItemCodename}
                     order by language limit 1) cur on cur.embedder = r.embedder
          left join recs_popularity p on p.project_id = r.project_id and p.codename = r.codename
          where r.project_id = ${q.projectId} and r.type = ${q.requestedType}
            and r.codename <> ${q.currentItemCodename} and ${filter}`,
        q.limit,
      );
    },
    search(q: SearchQuery) {
      const tsquery = anyWordQuery(q.text);
      const lexical =
        tsquery === ''
          ? sql`0`
          : sql`ts_rank_cd(to_tsvector('simple', r.search_text), to_tsquery('simple', ${tsquery}), 32)`;
      const similarity = sql`(1 - ${vectors.distance(sql`r.embedding`, vectors.literal(q.embedding))} / 2)`;
      const type = q.requestedType === null ? sql`true` : sql`r.type = ${q.requestedType}`;
      return best(
        sql`
          select r.codename, r.lastupdated,
                 ${searchVectorWeight} * ${similarity} + ${1 - searchVectorWeight} * ${lexical} as score
          from recs_items r
          where r.project_id = ${q.projectId} and ${type}`,
        q.limit,
      );
    },
  };
}
