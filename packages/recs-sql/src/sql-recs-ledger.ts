import { sql, type Kysely } from 'kysely';
import type { RecsLedger } from '@lectern/core';
import type { Database } from '@lectern/store-sql';
import { embeddingOf } from './sql-recs-reader.ts';
import { createSqlRecsTracking, popularityKeySql, popularitySql } from './sql-tracking.ts';
import { createSqlRecsWriter, resetSqlRecsProject, sqlTermStats } from './sql-recs-writer.ts';
import { detectVectorSql } from './vector-sql.ts';

/**
 * The recommendation state on the store's database (`recs_*` tables) that a search-engine index
 * keeps beside its own copy: the SQL writer stays the system of record.
 */
export async function createSqlRecsLedger(options: { db: Kysely<Database> }): Promise<RecsLedger> {
  const db = options.db as unknown as Kysely<unknown>;
  const vectors = await detectVectorSql(db);
  return {
    writer: createSqlRecsWriter({ db, vectors }),
    tracking: createSqlRecsTracking({ db }),
    termStats: (o) => sqlTermStats(db, o),
    embeddingOf: (projectId, codename) => embeddingOf(db, projectId, codename),
    async popularity(projectId, at, limit) {
      const rows = await sql<{ codename: string; score: number }>`
        select p.codename, ${popularitySql({ alias: 'p', at })} as score from recs_popularity p
        where p.project_id = ${projectId} order by ${popularityKeySql('p')} desc limit ${limit}`.execute(db);
      return new Map(rows.rows.map((r) => [r.codename, Number(r.score)]));
    },
    reset: (projectId) => resetSqlRecsProject(db, projectId),
  };
}
