import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { RecsTracking, VisitKind } from '@lectern/core';

/** Popularity halves every week without visits. */
const halfLifeSeconds = 7 * 24 * 3600;
const decaySeconds = halfLifeSeconds / Math.LN2;

/** What one event adds to an item's popularity. */
const weights: Readonly<Record<VisitKind, number>> = { visit: 1, conversion: 2, portion: 0 };

/**
 * The order of `recs_popularity` rows by their decayed score at any time: `ln(score) +
 * updated_at/τ` (every row decays at the same rate; migration 0024), of the row `alias` as written.
 */
export function popularityKeySql(alias: string): RawBuilder<number> {
  return sql<number>`${sql.ref(`${alias}.rank_key`)}`;
}

/** `rank_key` of a row holding `score` (a SQL expression) as of `updatedAt` (a SQL expression). */
const rankKeyOf = (score: RawBuilder<unknown>, updatedAt: RawBuilder<unknown>) =>
  sql`ln(greatest(${score}, 1e-300)) + extract(epoch from ${updatedAt})::float8 / ${sql.lit(decaySeconds)}`;

/** The time-decayed popularity of `recs_popularity` row `alias` as of `at` (0 without a row). */
export function popularitySql(options: { alias: string; at: Date }): RawBuilder<number> {
  const a = sql.ref(options.alias);
  return sql<number>`coalesce(${a}.score * exp(- greatest(extract(epoch from (${options.at}::timestamptz - ${a}.updated_at)), 0) / ${decaySeconds}::float8), 0)`;
}

/** How long a project's tracking setting is answered from memory. */
const settingTtlMs = 1_000;

/**
 * Visits, popularity, visitors and the tracking setting on `recs_*` tables. The setting is read
 * at most once a second per project (a change made elsewhere shows within a second).
 */
export function createSqlRecsTracking(options: { db: Kysely<unknown> }): RecsTracking {
  const { db } = options;
  const settings = new Map<string, { at: number; isManual: boolean }>();
  return {
    async recordVisit(v) {
      const weight = weights[v.kind];
      const visit = sql`insert into recs_visits (project_id, visit_id, codename, kind, portion, at)
        values (${v.projectId}, ${v.visitId}, ${v.codename}, ${v.kind}, ${v.portion ?? null}, ${v.at})`;
      // One statement (atomic, one round trip): the visit, and the item's popularity when it counts.
      await (
        weight === 0
          ? visit
          : sql`with visit as (${visit})
            insert into recs_popularity as p (project_id, codename, score, updated_at, rank_key)
            values (${v.projectId}, ${v.codename}, ${weight}, ${v.at},
                    ${rankKeyOf(sql`${weight}::float8`, sql`${v.at}::timestamptz`)})
            on conflict (project_id, codename) do update set
              score = ${popularitySql({ alias: 'p', at: v.at })} + excluded.score,
              updated_at = greatest(p.updated_at, excluded.updated_at),
              -- The new score is as of v.at: its key is ln(score at v.at) + v.at/τ.
              rank_key = ${rankKeyOf(sql`${popularitySql({ alias: 'p', at: v.at })} + excluded.score`, sql`${v.at}::timestamptz`)}`
      ).execute(db);
    },
    async recordVisitor(v) {
      const location = v.location === null ? null : JSON.stringify(v.location);
      const custom = v.custom === null ? null : JSON.stringify(v.custom);
      await sql`
        insert into recs_visitors as t (project_id, visit_id, referer, location, custom, first_seen, last_seen)
        values (${v.projectId}, ${v.visitId}, ${v.referer}, ${location}::jsonb, ${custom}::jsonb, ${v.at}, ${v.at})
        on conflict (project_id, visit_id) do update set
          referer = coalesce(excluded.referer, t.referer),
          location = coalesce(excluded.location, t.location),
          custom = coalesce(excluded.custom, t.custom),
          last_seen = greatest(t.last_seen, excluded.last_seen)`.execute(db);
    },
    async isManualTracking(projectId) {
      const known = settings.get(projectId);
      if (known && performance.now() - known.at < settingTtlMs) return known.isManual;
      const r = await sql<{ is_manual_tracking: boolean }>`
        select is_manual_tracking from recs_settings where project_id = ${projectId}`.execute(db);
      const isManual = r.rows[0]?.is_manual_tracking ?? false;
      if (settings.size > 10_000) settings.clear();
      settings.set(projectId, { at: performance.now(), isManual });
      return isManual;
    },
    async setManualTracking(projectId, isManual) {
      settings.delete(projectId);
      await sql`insert into recs_settings (project_id, is_manual_tracking) values (${projectId}, ${isManual})
                on conflict (project_id) do update set is_manual_tracking = excluded.is_manual_tracking`.execute(db);
    },
  };
}
