import { sql, type Kysely, type RawBuilder } from 'kysely';
import {
  candidatesFor,
  firstCandidates,
  halfPopularVisits,
  isNearOnly,
  maxCandidates,
  QueryRangeError,
  searchVectorWeight,
  similarWeight,
  words,
  type RecommendQuery,
  type RecsReader,
  type SearchQuery,
} from '@lectern/core';
import { querySql } from './query-sql.ts';
import { sqlTermStats } from './sql-recs-writer.ts';
import { popularityKeySql, popularitySql } from './sql-tracking.ts';
import type { VectorSql } from './vector-sql.ts';

type Sql = RawBuilder<unknown>;

/** The words of a search as tsqueries matching any of them and all of them ('' without words). */
function wordQueries(text: string): { any: string; all: string } {
  const terms = words(text)
    .flatMap((w) => w.split(/[^\p{L}\p{N}]+/u))
    .filter((w) => w.length > 1);
  const quoted = [...new Set(terms)].map((t) => `'${t}'`);
  return { any: quoted.join(' | '), all: quoted.join(' & ') };
}

const key = sql`r.project_id, r.item_id, r.language`;
/** SQLSTATE `numeric_value_out_of_range`: PostgreSQL's answer to a float overflow or underflow. */
const numericValueOutOfRange = '22003';

/**
 * The embedding of the item with this codename (its first language), or null when it has no
 * entry; either column type (`vector` or `real[]`) reads back as text.
 */
export async function embeddingOf(db: Kysely<unknown>, projectId: string, codename: string): Promise<number[] | null> {
  const r = await sql<{ e: string }>`
    select embedding::text as e from recs_items
    where project_id = ${projectId} and codename = ${codename}
    order by language limit 1`.execute(db);
  const text = r.rows[0]?.e;
  return text === undefined
    ? null
    : text
        .replace(/[[\]{}]/g, '')
        .split(',')
        .map(Number);
}

/**
 * Reads the recommendation index in one transaction per request. Candidates come from indexes —
 * the nearest neighbours of the current item (pgvector HNSW with iterative scans, so the filter
 * is applied inside the vector search), the most popular items, the most recent ones — each
 * source already restricted by project, type, the current item and the filter; the candidates are
 * then scored (similarity, time-decayed popularity, booster) and the best distinct codenames kept.
 */
export function createSqlRecsReader(options: { db: Kysely<unknown>; vectors: VectorSql }): RecsReader {
  const { db, vectors } = options;

  /** The recommendation itself; the reader's `recommend` translates the database's range errors. */
  const recommend = async (q: RecommendQuery): Promise<string[]> => {
    const filter = q.filter ? querySql(q.filter, { nowMs: q.nowMs }) : sql`true`;
    const booster = q.booster ? sql`greatest(coalesce(${querySql(q.booster, { nowMs: q.nowMs })}, 0), 0)` : sql`1`;
    const at = new Date(q.nowMs);
    const current = q.scenario === 'popular' ? null : await embeddingOf(db, q.projectId, q.currentItemCodename);
    const nearOnly = isNearOnly(q, current !== null);
    const where = sql`r.project_id = ${q.projectId} and r.type = ${q.requestedType}
      and r.codename <> ${q.currentItemCodename} and ${filter}`;
    const similarity = current ? sql`(1 - ${vectors.distance(current)} / 2)` : sql`0::float8`;
    const popularity = popularitySql({ alias: 'p', at });
    const score =
      q.scenario === 'similar'
        ? similarity
        : q.scenario === 'popular'
          ? popularity
          : sql`(${similarWeight}::float8 * ${similarity} + ${1 - similarWeight}::float8 * ${popularity} / (${popularity} + ${halfPopularVisits}::float8))`;
    /** The best codenames among up to `k` candidates per source, and whether a source had `k`. */
    const rank = (k: number) => {
      const sources: Sql[] = nearOnly
        ? []
        : [sql`(select ${key} from recs_items r where ${where} order by r.lastupdated desc limit ${q.limit})`];
      if (current) {
        const near = vectors.nearest(current);
        sources.push(
          sql`(select ${key} from recs_items r where ${where} and ${near.condition} order by ${near.order} limit ${k})`,
        );
      }
      if (q.scenario !== 'similar')
        sources.push(sql`(select ${key} from recs_popularity p
          join recs_items r on r.project_id = p.project_id and r.codename = p.codename
          where p.project_id = ${q.projectId} and ${where}
          order by ${popularityKeySql('p')} desc limit ${k})`);
      return db.transaction().execute(async (trx) => {
        if (current) await vectors.prepare(trx, k);
        const result = await sql<{ codename: string; candidates: number }>`
          with c as (${sql.join(sources, sql` union `)})
          select codename, (select count(*) from c)::int as candidates from (
            select r.codename, r.lastupdated, ${score} * ${booster} as score
            from c
            join recs_items r using (project_id, item_id, language)
            left join recs_popularity p on p.project_id = r.project_id and p.codename = r.codename
          ) s
          group by codename
          order by max(score) desc, max(lastupdated) desc, codename
          limit ${q.limit}`.execute(trx);
        return { codenames: result.rows.map((r) => r.codename), candidates: result.rows[0]?.candidates ?? 0 };
      });
    };
    // Plain `similar` asks for few neighbours; entries in several languages of the same items
    // can leave fewer distinct codenames than the limit, and then it asks for more.
    for (let k = firstCandidates(q, current !== null); ; k *= 4) {
      const { codenames, candidates } = await rank(k);
      if (!nearOnly || codenames.length >= q.limit || candidates < k || k >= maxCandidates) return codenames;
    }
  };

  return {
    termStats: (o) => sqlTermStats(db, o),

    async recommend(q: RecommendQuery) {
      try {
        return await recommend(q);
      } catch (error) {
        // PostgreSQL refuses float overflow and underflow (IEEE arithmetic would give Infinity or 0).
        if ((error as { code?: unknown } | null)?.code === numericValueOutOfRange)
          throw new QueryRangeError({ cause: error });
        throw error;
      }
    },

    async search(q: SearchQuery) {
      const tsquery = wordQueries(q.text);
      const k = candidatesFor(q.limit, false);
      const type = q.requestedType === null ? sql`true` : sql`r.type = ${q.requestedType}`;
      const where = sql`r.project_id = ${q.projectId} and ${type}`;
      const near = vectors.nearest(q.embedding);
      const sources: Sql[] = [
        sql`(select ${key} from recs_items r where ${where} and ${near.condition} order by ${near.order} limit ${k})`,
      ];
      const lexical =
        tsquery.any === ''
          ? sql`0::float8`
          : sql`ts_rank_cd(r.search_vector, to_tsquery('simple', ${tsquery.any}), 32)`;
      // Lexical candidates: the items holding every word, best first (selective, so cheap to rank);
      // items holding only some words come through the vector source, and all are scored by any word.
      if (tsquery.all !== '')
        sources.push(sql`(select ${key} from recs_items r
          where ${where} and r.search_vector @@ to_tsquery('simple', ${tsquery.all})
          order by ts_rank_cd(r.search_vector, to_tsquery('simple', ${tsquery.all}), 32) desc limit ${k})`);
      const similarity = sql`(1 - ${vectors.distance(q.embedding)} / 2)`;
      return db.transaction().execute(async (trx) => {
        await vectors.prepare(trx, k);
        const result = await sql<{ codename: string }>`
          select codename from (
            select r.codename, r.lastupdated,
                   ${searchVectorWeight}::float8 * ${similarity} + ${1 - searchVectorWeight}::float8 * ${lexical} as score
            from (${sql.join(sources, sql` union `)}) c
            join recs_items r using (project_id, item_id, language)
          ) s
          group by codename
          order by max(score) desc, max(lastupdated) desc, codename
          limit ${q.limit}`.execute(trx);
        return result.rows.map((r) => r.codename);
      });
    },
  };
}
