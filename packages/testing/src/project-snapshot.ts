import { sql, type Kysely } from 'kysely';
import type { Database } from '@lectern/store-sql';

/**
 * A fingerprint of everything a project stores, one digest per table: the project row, its keys,
 * model objects (types, snippets, taxonomies, languages, collections, workflows, spaces), items,
 * variants, scheduled jobs, binary files, assets, the asset folder tree, and the last change
 * event's sequence (any appended event moves it). Bookkeeping that reading also moves (rate-limit
 * counters, the relay's position) is left out. Two equal snapshots: nothing was stored between.
 */
export type ProjectSnapshot = Readonly<Record<string, string>>;

const tables = [
  'model_objects',
  'content_items',
  'content_variants',
  'scheduled_jobs',
  'binary_files',
  'assets',
  'asset_folder_trees',
  'api_keys',
] as const;

export async function projectSnapshot(db: Kysely<Database>, projectId: string): Promise<ProjectSnapshot> {
  const digest = (table: string) =>
    sql<string>`(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from ${sql.table(table)} t where t.project_id = ${projectId})`;
  const result = await sql<Record<string, string>>`select
      (select md5(coalesce(string_agg(t::text, '|'), '')) from projects t where t.id = ${projectId}) as projects,
      (select coalesce(max(last_seq), 0)::text from project_sequences where project_id = ${projectId}) as last_seq,
      ${sql.join(
        tables.map((table) => sql`${digest(table)} as ${sql.ref(table)}`),
        sql`, `,
      )}`.execute(db);
  return result.rows[0] as ProjectSnapshot;
}

/** The tables whose digests differ between two snapshots (empty: unchanged). */
export function snapshotChanges(before: ProjectSnapshot, after: ProjectSnapshot): string[] {
  return Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
}
