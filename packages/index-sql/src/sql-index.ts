import { sql, type Kysely } from 'kysely';
import {
  composeDeliveryIndex,
  type DeliveryDocuments,
  type DeliveryIndex,
  type IndexedVariant,
  type ItemQueryResult,
} from '@lectern/core';
import { createIndexLedger, type Database, type SqlIndexLedger } from '@lectern/store-sql';
import { itemQuerySql, type SqlItemQuery } from './query-sql.ts';
import type { IndexDatabase } from './schema.ts';
import { writeDocuments, type Trx } from './sql-writer.ts';

/** The delivery index on SQL tables: the reader Delivery uses and the writer the indexer uses. */
export type SqlDeliveryIndex = DeliveryIndex;

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
 * The documents on the store's database (`SqlStore.db`), written in the ledger's transaction.
 * Reads are single statements (on PGlite, kysely gives each its one connection exclusively, so
 * none runs inside another caller's transaction).
 */
export function createSqlDocuments(options: { db: Kysely<Database>; ledger: SqlIndexLedger }): DeliveryDocuments {
  const db = options.db as unknown as Db;
  const { ledger } = options;
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

  return {
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

    async usedIn(o) {
      const [kind, target] = 'itemCodename' in o.target ? ['u', o.target.itemCodename] : ['a', o.target.assetId];
      const rows = await sql<{ body: string }>`select d.body from delivery_documents d
          where d.doc_id in (select l.doc_id from delivery_links l
            where l.project_id = ${o.projectId}::uuid and l.kind = ${kind}::"char" and l.target = ${target}::text
              and l.channel = ${o.channel}::text)
          order by d.codename, d.language`.execute(db);
      return rows.rows.map((r) => parseVariant(r.body));
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
      const written = await ledger.commit({
        batch,
        write: (watermark, trx) => writeDocuments(trx as unknown as Trx, batch, watermark),
      });
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
      await ledger.clear(projectId, async (ledgerTrx) => {
        const trx = ledgerTrx as unknown as Trx;
        for (const table of ['delivery_values', 'delivery_members', 'delivery_links', 'delivery_documents'] as const)
          await trx.deleteFrom(table).where('project_id', '=', projectId).execute();
      });
    },
  };
}

/** The delivery index on SQL tables: the ledger and the documents on the store's database. */
export function createSqlIndex(options: { db: Kysely<Database> }): SqlDeliveryIndex {
  const ledger = createIndexLedger({ db: options.db });
  return composeDeliveryIndex({ ledger, documents: createSqlDocuments({ db: options.db, ledger }) });
}
