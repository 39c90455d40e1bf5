import { sql, type Kysely } from 'kysely';
import type { RecsBatch, RecsIndexWriter } from '@lectern/core';
import type { VectorSql } from './vector-sql.ts';

/** Rows per insert statement. */
const insertChunk = 200;

/** The writer side of the recommendation index on `recs_items` and `recs_watermarks`. */
export function createSqlRecsWriter(options: { db: Kysely<unknown>; vectors: VectorSql }): RecsIndexWriter {
  const { db, vectors } = options;
  return {
    async watermark(projectId) {
      const r = await sql<{ seq: string | number }>`
        select seq from recs_watermarks where project_id = ${projectId}`.execute(db);
      return Number(r.rows[0]?.seq ?? 0);
    },
    async indexedItemIds(projectId) {
      const r = await sql<{ item_id: string }>`
        select distinct item_id from recs_items where project_id = ${projectId}`.execute(db);
      return r.rows.map((row) => row.item_id);
    },
    apply(batch: RecsBatch) {
      return db.transaction().execute(async (trx) => {
        await sql`insert into recs_watermarks (project_id, seq) values (${batch.projectId}, 0)
                  on conflict (project_id) do nothing`.execute(trx);
        const current = await sql<{ seq: string | number }>`
          select seq from recs_watermarks where project_id = ${batch.projectId} for update`.execute(trx);
        if (batch.toSeq <= Number(current.rows[0]?.seq ?? 0)) return false;
        const itemIds = batch.items.map((i) => i.itemId);
        if (itemIds.length > 0)
          await sql`delete from recs_items where project_id = ${batch.projectId}
                    and item_id = any(${itemIds}::uuid[])`.execute(trx);
        const entries = batch.items.flatMap((i) => i.entries);
        for (let start = 0; start < entries.length; start += insertChunk) {
          const rows = entries.slice(start, start + insertChunk).map(
            (e) => sql`(${batch.projectId}, ${e.itemId}, ${e.language}, ${e.codename}, ${e.name}, ${e.type},
              ${e.lastUpdated}, ${[...e.properties]}::text[], ${e.text}, ${batch.embedder}, ${vectors.literal(e.embedding)})`,
          );
          await sql`insert into recs_items (project_id, item_id, language, codename, name, type, lastupdated,
                      properties, search_text, embedder, embedding)
                    values ${sql.join(rows)}`.execute(trx);
        }
        if (!batch.isPartial)
          await sql`update recs_watermarks set seq = ${batch.toSeq} where project_id = ${batch.projectId}`.execute(trx);
        return true;
      });
    },
  };
}
