import { sql, type Kysely } from 'kysely';

/** sql-tracking.ts's decay constant τ, in seconds: popularity halves every week without visits. */
const decaySeconds = (7 * 24 * 3600) / Math.LN2;

/**
 * Issue 35: the most popular items without sorting the whole table. Popularity decays at the same
 * rate for every row (score · e^(−(t − updated_at)/τ)), so the order by the decayed score at any
 * time t is the order by `ln(score) + updated_at/τ`, a key that never changes while a row is not
 * written. `rank_key` holds it (the tracking port's upsert keeps it), and the index on
 * (project_id, rank_key desc) makes "the k most popular" an index scan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table recs_popularity add column rank_key double precision`.execute(db);
  await sql`update recs_popularity
    set rank_key = ln(greatest(score, 1e-300)) + extract(epoch from updated_at)::float8 / ${sql.lit(decaySeconds)}`.execute(
    db,
  );
  await sql`alter table recs_popularity alter column rank_key set not null`.execute(db);
  await sql`create index recs_popularity_rank on recs_popularity (project_id, rank_key desc)`.execute(db);
}
