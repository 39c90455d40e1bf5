import { sql, type Kysely } from 'kysely';
import type { Database } from '@lectern/store-sql';

/**
 * After a change of embedding provider (LECTERN_RECS_EMBEDDING, or another model): forgets the
 * recommendation watermark of every project holding an entry made by another provider, so that the
 * recommendation consumer's catch-up re-renders and re-embeds all its items (entries of two
 * providers are not comparable). Run by the processes that index, before the consumer starts.
 * Resolves with the ids of the projects reset.
 */
export async function resetOnProviderChange(options: { db: Kysely<Database>; embedderId: string }): Promise<string[]> {
  const db = options.db as unknown as Kysely<unknown>;
  const reset = await sql<{ project_id: string }>`
    delete from recs_watermarks w
    where exists (select 1 from recs_items r where r.project_id = w.project_id and r.embedder <> ${options.embedderId})
    returning w.project_id`.execute(db);
  return reset.rows.map((r) => r.project_id);
}
