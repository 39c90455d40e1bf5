import { sql, type Kysely } from 'kysely';
import type { CorpusStats, RecsBatch, RecsIndexWriter } from '@lectern/core';
import type { VectorSql } from './vector-sql.ts';

/** Rows per insert statement. */
const insertChunk = 200;

/** The term every entry holds (no word is empty): its document frequency is the entry count. */
const everyEntry = '';

/** Document frequencies of the terms among the project's entries, and the entry count (one query). */
export async function sqlTermStats(
  db: Kysely<unknown>,
  options: { projectId: string; terms: readonly string[] },
): Promise<CorpusStats> {
  const rows = await sql<{ term: string; df: number }>`
    select term, df from recs_terms
    where project_id = ${options.projectId} and term = any(${[everyEntry, ...options.terms]}::text[])`.execute(db);
  const frequencies = new Map(rows.rows.map((r) => [r.term, r.df]));
  return {
    documents: frequencies.get(everyEntry) ?? 0,
    documentFrequency: (term) => (term === everyEntry ? 0 : (frequencies.get(term) ?? 0)),
  };
}

/** The writer side of the recommendation index on `recs_items`, `recs_terms` and `recs_watermarks`. */
export function createSqlRecsWriter(options: { db: Kysely<unknown>; vectors: VectorSql }): RecsIndexWriter {
  const { db, vectors } = options;
  return {
    async watermark(projectId) {
      const r = await sql<{ seq: string | number }>`
        select seq from recs_watermarks where project_id = ${projectId}`.execute(db);
      return Number(r.rows[0]?.seq ?? 0);
    },
    async fullDocuments(projectId) {
      const r = await sql<{ n: string | number }>`
        select full_documents as n from recs_watermarks where project_id = ${projectId}`.execute(db);
      return Number(r.rows[0]?.n ?? 0);
    },
    termStats: (o) => sqlTermStats(db, o),
    async indexedItemIds(projectId) {
      const r = await sql<{ item_id: string }>`
        select distinct item_id from recs_items where project_id = ${projectId}`.execute(db);
      return r.rows.map((row) => row.item_id);
    },
    apply(batch: RecsBatch) {
      const { projectId } = batch;
      return db.transaction().execute(async (trx) => {
        await sql`insert into recs_watermarks (project_id, seq) values (${projectId}, 0)
                  on conflict (project_id) do nothing`.execute(trx);
        const current = await sql<{ seq: string | number }>`
          select seq from recs_watermarks where project_id = ${projectId} for update`.execute(trx);
        if (batch.toSeq <= Number(current.rows[0]?.seq ?? 0)) return false;
        const itemIds = batch.items.map((i) => i.itemId);
        if (itemIds.length > 0) {
          await sql`
            with gone as (
              delete from recs_items where project_id = ${projectId} and item_id = any(${itemIds}::uuid[])
              returning terms
            )
            update recs_terms t set df = t.df - g.n
            from (select term, count(*)::int as n from gone, unnest(array_append(gone.terms, ${everyEntry}::text)) as term
                  group by term) g
            where t.project_id = ${projectId} and t.term = g.term`.execute(trx);
          await sql`delete from recs_terms where project_id = ${projectId} and df <= 0`.execute(trx);
        }
        const entries = batch.items.flatMap((i) => i.entries);
        for (let start = 0; start < entries.length; start += insertChunk) {
          const chunk = entries.slice(start, start + insertChunk);
          const rows = chunk.map(
            (e) => sql`(${projectId}, ${e.itemId}, ${e.language}, ${e.codename}, ${e.name}, ${e.type},
              ${e.lastUpdated}, ${[...e.properties]}::text[], ${e.text}, ${[...e.terms]}::text[], ${batch.embedder},
              ${vectors.literal(e.embedding)})`,
          );
          await sql`insert into recs_items (project_id, item_id, language, codename, name, type, lastupdated,
                      properties, search_text, terms, embedder, embedding)
                    values ${sql.join(rows)}`.execute(trx);
          await sql`
            insert into recs_terms as t (project_id, term, df)
            select ${projectId}, term, count(*)::int
            from unnest(${chunk.flatMap((e) => [everyEntry, ...e.terms])}::text[]) as term
            group by term
            on conflict (project_id, term) do update set df = t.df + excluded.df`.execute(trx);
        }
        if (!batch.isPartial)
          await sql`update recs_watermarks set seq = ${batch.toSeq},
                      full_documents = case when ${batch.isFull === true}
                        then coalesce((select df from recs_terms
                                       where project_id = ${projectId} and term = ${everyEntry}), 0)
                        else full_documents end
                    where project_id = ${projectId}`.execute(trx);
        return true;
      });
    },
  };
}

/**
 * Drops the project's recommendation entries, document frequencies and watermark (its visits and
 * settings stay), so that the next catch-up re-renders every item: `lectern index rebuild`.
 */
export async function resetSqlRecsProject(db: Kysely<unknown>, projectId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`delete from recs_items where project_id = ${projectId}`.execute(trx);
    await sql`delete from recs_terms where project_id = ${projectId}`.execute(trx);
    await sql`delete from recs_watermarks where project_id = ${projectId}`.execute(trx);
  });
}
