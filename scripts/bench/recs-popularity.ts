// Popularity with a realistic long tail for the Smart Recommendations benchmark: N visits over the
// index's items drawn from a Zipf distribution (exponent 1: the k-th most visited item gets about
// 1/k of the first one's visits), spread over the past week, written with two SQL statements into
// the tables the tracking port writes (recs_visits, recs_popularity; packages/recs-sql's
// sql-tracking.ts; rank_key as migration 0024 defines it), instead of N HTTP calls: the API has no batch path, and a million calls would
// measure the tracking route, not the reads that use the popularity.
import { createRequire } from 'node:module';
import type * as KyselyModule from 'kysely';
import type { SqlStore } from '../../packages/store-sql/src/index.ts';

// kysely is a dependency of the store package, not of the workspace root this script runs from.
const { sql } = createRequire(new URL('../../packages/store-sql/package.json', import.meta.url))(
  'kysely',
) as typeof KyselyModule;

/** sql-tracking.ts's decay: popularity halves every week without visits. */
const decaySeconds = (7 * 24 * 3600) / Math.LN2;

export interface ZipfFill {
  readonly visits: number;
  /** Items with at least one visit. */
  readonly distinct: number;
  readonly seconds: number;
  /** The ten most popular codenames as the table holds them (what `popular` must answer first). */
  readonly top: readonly string[];
  /** Share of all visits that went to the 1 % most visited items. */
  readonly headShare: number;
}

/**
 * Draws `visits` visits: item rank r = ⌊(n + 1)^u⌋ for u uniform in [0, 1) (the inverse of the
 * continuous Zipf CDF, ln(r) / ln(n + 1)); rank r is `codenames[(r · 7919) mod n]`, so the popular
 * items are spread through the corpus, not its first topic. Visit times are uniform over the past
 * 7 days; each item's popularity is the sum of its visits decayed to now, as the tracking port's
 * increments would leave it. Replaces any popularity the project had.
 */
export async function fillZipfVisits(
  db: SqlStore['db'],
  options: { projectId: string; codenames: readonly string[]; visits: number; now?: Date },
): Promise<ZipfFill> {
  const { projectId, codenames, visits } = options;
  const now = options.now ?? new Date();
  const n = codenames.length;
  const began = performance.now();
  await sql`delete from recs_visits where project_id = ${projectId}`.execute(db);
  await sql`delete from recs_popularity where project_id = ${projectId}`.execute(db);
  await sql`
    with draws as (
      select g, least(floor(power(${n + 1}::float8, random())), ${n}::float8)::bigint as r
      from generate_series(1, ${visits}::int) g)
    insert into recs_visits (project_id, visit_id, codename, kind, portion, at)
    select ${projectId}::uuid, 'zipf-' || (d.g % 100000), c.codename, 'visit', null,
           ${now}::timestamptz - random() * interval '7 days'
    from draws d
    join unnest(${[...codenames]}::text[]) with ordinality as c(codename, k) on c.k = ((d.r * 7919) % ${n}) + 1`.execute(
    db,
  );
  await sql`
    insert into recs_popularity (project_id, codename, score, updated_at, rank_key)
    select project_id, codename, score, ${now}::timestamptz,
           ln(score) + extract(epoch from ${now}::timestamptz)::float8 / ${decaySeconds}::float8
    from (select project_id, codename,
                 sum(exp(- greatest(extract(epoch from (${now}::timestamptz - at)), 0) / ${decaySeconds}::float8)) as score
          from recs_visits where project_id = ${projectId} group by project_id, codename) s`.execute(db);
  const seconds = (performance.now() - began) / 1000;
  const top = await sql<{ codename: string }>`
    select codename from recs_popularity where project_id = ${projectId} order by score desc, codename limit 10`.execute(
    db,
  );
  const stats = await sql<{ distinct: string; head: string; total: string }>`
    with counts as (select codename, count(*) as c from recs_visits where project_id = ${projectId} group by codename),
         ranked as (select c, row_number() over (order by c desc) as k from counts)
    select (select count(*) from counts) as distinct,
           (select coalesce(sum(c), 0) from ranked where k <= greatest(${n}::int / 100, 1)) as head,
           (select coalesce(sum(c), 0) from ranked) as total`.execute(db);
  const row = stats.rows[0];
  return {
    visits,
    distinct: Number(row?.distinct ?? 0),
    seconds,
    top: top.rows.map((r: { codename: string }) => r.codename),
    headShare: Number(row?.head ?? 0) / Math.max(1, Number(row?.total ?? 0)),
  };
}
