import { sql, type Kysely } from 'kysely';
import type {
  DeliveryIndexReader,
  DeliveryIndexWriter,
  DeliveryItem,
  IndexChange,
  IndexedLanguage,
  IndexedVariant,
  ItemQueryResult,
} from '@lectern/core';
import type { Database } from '@lectern/store-sql';
import { modelChangesSince } from './model-changes.ts';
import { itemQuerySql, type SqlItemQuery } from './query-sql.ts';
import type { IndexDatabase } from './schema.ts';
import { applyBatch } from './sql-writer.ts';

/** The delivery index on SQL tables: the reader Delivery uses and the writer the indexer uses. */
export interface SqlDeliveryIndex extends DeliveryIndexReader, DeliveryIndexWriter {
  /** Project ids that have a watermark. */
  indexedProjects(): Promise<string[]>;
}

type Db = Kysely<IndexDatabase>;

const parseVariant = (body: string) => JSON.parse(body) as IndexedVariant;

/**
 * Documents written since the statistics were last refreshed after which `analyze` runs, at the
 * end of a batch (not between the parts of one re-render). PGlite has no autovacuum, and on
 * PostgreSQL it comes late after a bulk write: without statistics the planner cannot tell a
 * selective filter from a broad one (list misses took a second instead of milliseconds).
 */
const analyzeAfterDocuments = 1_000;

/**
 * Builds the index on the store's database (`SqlStore.db`). Reads are single statements (on
 * PGlite, kysely gives each its one connection exclusively, so none runs inside another caller's
 * transaction); a batch is written in one transaction.
 */
export function createSqlIndex(options: { db: Kysely<Database> }): SqlDeliveryIndex {
  const db = options.db as unknown as Db;
  let writtenSinceAnalyze = 0;

  async function list(query: SqlItemQuery, paging: { skip: number; limit: number | null }) {
    if (query.languages.length === 0) return [];
    const limit = paging.limit === null ? sql`` : sql`limit ${paging.limit}`;
    const offset = paging.skip === 0 ? sql`` : sql`offset ${paging.skip}`;
    const rows = await sql<{
      body: string;
    }>`select d.body ${itemQuerySql(query, { isCount: false })} ${limit} ${offset}`.execute(db);
    return rows.rows.map((r) => parseVariant(r.body));
  }

  async function readModel(projectId: string) {
    const row = await db
      .selectFrom('delivery_models')
      .selectAll()
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return row ?? null;
  }

  return {
    async watermark(projectId) {
      const row = await db
        .selectFrom('delivery_watermarks')
        .select('seq')
        .where('project_id', '=', projectId)
        .executeTakeFirst();
      return row ? Number(row.seq) : 0;
    },

    async queryItems(query): Promise<ItemQueryResult> {
      const items = await list(query, query);
      let totalCount: number | null = null;
      if (query.isTotalCountNeeded) {
        if (query.languages.length === 0) totalCount = 0;
        else {
          const count = await sql<{
            n: string | number;
          }>`select count(*) as n ${itemQuerySql(query, { isCount: true })}`.execute(db);
          totalCount = Number(count.rows[0]?.n ?? 0);
        }
      }
      return { items, totalCount };
    },

    async itemsByCodename(o) {
      if (o.codenames.length === 0) return [];
      return list({ ...o, filters: [], order: null }, { skip: 0, limit: null });
    },

    async types(projectId) {
      const row = await readModel(projectId);
      return row ? (JSON.parse(row.types) as Record<string, unknown>[]) : [];
    },
    async taxonomies(projectId) {
      const row = await readModel(projectId);
      return row ? (JSON.parse(row.taxonomies) as Record<string, unknown>[]) : [];
    },
    async languages(projectId) {
      const row = await readModel(projectId);
      return row ? (JSON.parse(row.languages) as IndexedLanguage[]) : [];
    },

    async usedIn(o) {
      const [kind, target] = 'itemCodename' in o.target ? ['u', o.target.itemCodename] : ['a', o.target.assetId];
      const rows = await sql<{ body: string }>`select d.body from delivery_documents d
          where d.doc_id in (select l.doc_id from delivery_links l
            where l.project_id = ${o.projectId}::uuid and l.kind = ${kind}::"char" and l.target = ${target}::text
              and l.channel = ${o.channel}::text)
          order by d.codename, d.language`.execute(db);
      return rows.rows.map((r) => parseVariant(r.body));
    },

    async changesSince(o) {
      // Changes above the watermark belong to a re-render still being written in parts.
      const base = db
        .selectFrom('delivery_changes')
        .selectAll()
        .where('project_id', '=', o.projectId)
        .where('channel', '=', o.channel)
        .where('seq', '<=', db.selectFrom('delivery_watermarks').select('seq').where('project_id', '=', o.projectId));
      const rows = await base
        .where('seq', '>', o.afterSeq)
        .orderBy('seq')
        .orderBy('item_id')
        .orderBy('language')
        .limit(o.limit + 1)
        .execute();
      let found = rows;
      // Never split the changes of one sequence across pages: callers continue after the last seq.
      if (rows.length > o.limit) {
        const cutSeq = Number(rows[o.limit]?.seq);
        const kept = rows.slice(0, o.limit).filter((r) => Number(r.seq) !== cutSeq);
        found =
          kept.length > 0
            ? kept
            : await base.where('seq', '=', cutSeq).orderBy('item_id').orderBy('language').execute();
      }
      return found.map((r): IndexChange => ({
        seq: Number(r.seq),
        changeType: r.change_type === 'deleted' ? 'deleted' : 'changed',
        itemCodename: r.codename,
        itemId: r.item_id,
        language: r.language,
        type: r.type,
        collection: r.collection,
        timestamp: r.timestamp,
        ...(r.system === null ? {} : { system: JSON.parse(r.system) as DeliveryItem['system'] }),
      }));
    },

    modelChangesSince: (o) => modelChangesSince(db, o),

    async hasModel(projectId) {
      return (await readModel(projectId)) !== null;
    },

    async indexedItemIds(projectId) {
      const rows = await sql<{ item_id: string }>`select distinct item_id::text from delivery_documents
        where project_id = ${projectId}::uuid`.execute(db);
      return rows.rows.map((r) => r.item_id);
    },

    async dependents(o) {
      const targets = [...o.itemIds, ...o.assetIds];
      if (targets.length === 0) return [];
      const rows = await sql<{ item_id: string }>`select distinct d.item_id::text from delivery_documents d
        where d.doc_id in (select l.doc_id from delivery_links l
          where l.project_id = ${o.projectId}::uuid and (
            (l.kind = 'd' and l.target = any(${o.itemIds}::text[])) or (l.kind = 'a' and l.target = any(${o.assetIds}::text[]))))`.execute(
        db,
      );
      return rows.rows.map((r) => r.item_id);
    },

    async apply(batch) {
      const written = await db.transaction().execute((trx) => applyBatch(trx, batch));
      if (written === null) return false;
      writtenSinceAnalyze += written;
      if (!batch.isPartial && writtenSinceAnalyze >= analyzeAfterDocuments) {
        writtenSinceAnalyze = 0;
        for (const table of ['delivery_documents', 'delivery_values', 'delivery_members', 'delivery_links'])
          await sql`analyze ${sql.table(table)}`.execute(db);
      }
      return true;
    },

    async reset(projectId) {
      await db.transaction().execute(async (trx) => {
        for (const table of ['delivery_values', 'delivery_members', 'delivery_links'] as const)
          await trx.deleteFrom(table).where('project_id', '=', projectId).execute();
        for (const table of [
          'delivery_documents',
          'delivery_models',
          'delivery_watermarks',
          'delivery_changes',
          'delivery_model_changes',
        ] as const)
          await trx.deleteFrom(table).where('project_id', '=', projectId).execute();
      });
    },

    async indexedProjects() {
      const rows = await db.selectFrom('delivery_watermarks').select('project_id').execute();
      return rows.map((r) => r.project_id);
    },
  };
}
