import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type {
  DeliveryChannel,
  DeliveryIndexReader,
  DeliveryItem,
  DeliveryIndexWriter,
  IndexBatch,
  IndexChange,
  IndexDocument,
  IndexedLanguage,
  IndexedVariant,
  ItemQuery,
  ItemQueryResult,
} from '@lectern/core';
import { deliveryTime } from '@lectern/core';
import type { Database } from '@lectern/store-sql';
import { Extracts, filterSql, orderSql, pushdownSql, residualFilters } from './query-sql.ts';
import { modelChangesSince, recordModelChanges } from './model-changes.ts';
import type { IndexDatabase } from './schema.ts';

/** The delivery index on SQL tables: the reader Delivery uses and the writer the indexer uses. */
export interface SqlDeliveryIndex extends DeliveryIndexReader, DeliveryIndexWriter {
  /** Project ids that have a watermark. */
  indexedProjects(): Promise<string[]>;
}

type Db = Kysely<IndexDatabase>;

/** Per array-valued element, the codenames `contains`/`any`/`all` compare (SPEC 4.3 rule 5). */
function arrayCodenames(doc: IndexDocument): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, e] of Object.entries(doc.item.elements)) {
    if (e.type === 'modular_content' && Array.isArray(e.value)) out[key] = e.value as string[];
    else if ((e.type === 'multiple_choice' || e.type === 'taxonomy') && Array.isArray(e.value))
      out[key] = (e.value as { codename: string }[]).map((v) => v.codename);
    else if (e.type === 'custom' && typeof e.value === 'string') {
      try {
        const parsed: unknown = JSON.parse(e.value);
        if (Array.isArray(parsed) && parsed.every((x) => typeof x === 'string')) out[key] = parsed;
      } catch {
        // not a stringified array: contains/any/all never match it
      }
    }
  }
  return out;
}

function variantOf(doc: IndexDocument): IndexedVariant {
  return {
    itemId: doc.itemId,
    language: doc.language,
    item: doc.item,
    linkedItemCodenames: doc.linkedItemCodenames,
    components: doc.components,
  };
}

function languageOrder(column: RawBuilder<unknown>, languages: readonly string[]) {
  return sql`(case ${column} ${sql.join(
    languages.map((l, i) => sql`when ${l}::text then ${i}`),
    sql` `,
  )} end)`;
}

/**
 * Builds the index on the store's database (`SqlStore.db`). `isSingleConnection` (PGlite): reads
 * run in a transaction of their own, so they never run inside another caller's open transaction on
 * the one connection.
 */
export function createSqlIndex(options: { db: Kysely<Database>; isSingleConnection?: boolean }): SqlDeliveryIndex {
  const db = options.db as unknown as Db;
  const read = <T>(work: (q: Db | Transaction<IndexDatabase>) => Promise<T>): Promise<T> =>
    options.isSingleConnection ? db.transaction().execute(work) : work(db);

  /** Documents of the item codenames / all items, resolved through the language list. */
  async function resolved(
    q: Db | Transaction<IndexDatabase>,
    query: ItemQuery & { codenames?: readonly string[] },
  ): Promise<ItemQueryResult> {
    if (query.languages.length === 0) return { items: [], totalCount: query.isTotalCountNeeded ? 0 : null };
    const byCodename =
      query.codenames === undefined
        ? sql`true`
        : query.codenames.length === 0
          ? sql`false`
          : sql`d.codename in (${sql.join(query.codenames.map((c) => sql`${c}::text`))})`;
    const languageIn = sql.join(query.languages.map((l) => sql`${l}::text`));
    // One variant per item: the first language of the list it has (no earlier-language variant).
    const isFirstLanguage =
      query.languages.length === 1
        ? sql`true`
        : sql`not exists (select 1 from delivery_documents e
            where e.project_id = d.project_id and e.channel = d.channel and e.item_id = d.item_id
              and e.language in (${languageIn})
              and ${languageOrder(sql.ref('e.language'), query.languages)} < ${languageOrder(sql.ref('d.language'), query.languages)})`;
    const extracts = new Extracts();
    const filters = residualFilters(query.filters).map((f) => filterSql(f, extracts));
    const where = filters.length === 0 ? sql`true` : sql.join(filters, sql` and `);
    const order = orderSql(query.order, extracts);
    // `offset 0` keeps the subquery from being flattened, so each extracted value is read from
    // the document once per row rather than once per use; without extracts the planner may
    // flatten it and serve the order and limit from an index.
    const candidates = sql`select d.body, d.codename, d.arrays ${extracts.columns()} from delivery_documents d
      where d.project_id = ${query.projectId}::uuid and d.channel = ${query.channel}::text
        and d.language in (${languageIn}) and ${byCodename}
        and ${pushdownSql(query.filters)} and ${isFirstLanguage}
      ${extracts.isEmpty ? sql`` : sql`offset 0`}`;
    const limit = query.limit === null ? sql`` : sql`limit ${query.limit}`;
    const rows = await sql<{ body: string }>`select d.body from (${candidates}) d where ${where}
      order by ${order} offset ${query.skip} ${limit}`.execute(q);
    let totalCount: number | null = null;
    if (query.isTotalCountNeeded) {
      const count = await sql<{
        n: string | number;
      }>`select count(*) as n from (${candidates}) d where ${where}`.execute(q);
      totalCount = Number(count.rows[0]?.n ?? 0);
    }
    return { items: rows.rows.map((r) => variantOf(JSON.parse(r.body) as IndexDocument)), totalCount };
  }

  async function readModel(projectId: string) {
    const row = await read((q) =>
      q.selectFrom('delivery_models').selectAll().where('project_id', '=', projectId).executeTakeFirst(),
    );
    return row ?? null;
  }

  return {
    async watermark(projectId) {
      const row = await read((q) =>
        q.selectFrom('delivery_watermarks').select('seq').where('project_id', '=', projectId).executeTakeFirst(),
      );
      return row ? Number(row.seq) : 0;
    },

    queryItems: (query) => read((q) => resolved(q, query)),

    async itemsByCodename(o) {
      if (o.codenames.length === 0) return [];
      const result = await read((q) =>
        resolved(q, { ...o, filters: [], order: null, skip: 0, limit: null, isTotalCountNeeded: false }),
      );
      return [...result.items];
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
      const target =
        'itemCodename' in o.target
          ? sql`d.uses_codenames @> ${JSON.stringify([o.target.itemCodename])}::jsonb`
          : sql`d.asset_ids @> ${JSON.stringify([o.target.assetId])}::jsonb`;
      const rows = await read((q) =>
        sql<{ body: string }>`select d.body from delivery_documents d
          where d.project_id = ${o.projectId}::uuid and d.channel = ${o.channel}::text and ${target}
          order by d.codename collate "C", d.language collate "C"`.execute(q),
      );
      return rows.rows.map((r) => variantOf(JSON.parse(r.body) as IndexDocument));
    },

    async changesSince(o) {
      const rows = await read((q) =>
        q
          .selectFrom('delivery_changes')
          .selectAll()
          .where('project_id', '=', o.projectId)
          .where('channel', '=', o.channel)
          .where('seq', '>', o.afterSeq)
          .orderBy('seq')
          .orderBy('item_id')
          .orderBy('language')
          .limit(o.limit + 1)
          .execute(),
      );
      let list = rows;
      // Never split the changes of one sequence across pages: callers continue after the last seq.
      if (rows.length > o.limit) {
        const cutSeq = Number(rows[o.limit]?.seq);
        const kept = rows.slice(0, o.limit).filter((r) => Number(r.seq) !== cutSeq);
        list =
          kept.length > 0
            ? kept
            : await read((q) =>
                q
                  .selectFrom('delivery_changes')
                  .selectAll()
                  .where('project_id', '=', o.projectId)
                  .where('channel', '=', o.channel)
                  .where('seq', '=', cutSeq)
                  .orderBy('item_id')
                  .orderBy('language')
                  .execute(),
              );
      }
      return list.map((r): IndexChange => ({
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

    modelChangesSince: (o) => read((q) => modelChangesSince(q, o)),

    async hasModel(projectId) {
      return (await readModel(projectId)) !== null;
    },

    async indexedItemIds(projectId) {
      const rows = await read((q) =>
        q.selectFrom('delivery_documents').select('item_id').distinct().where('project_id', '=', projectId).execute(),
      );
      return rows.map((r) => r.item_id);
    },

    async dependents(o) {
      if (o.itemIds.length === 0 && o.assetIds.length === 0) return [];
      const conditions = [
        ...o.itemIds.map((id) => sql`d.depends_on @> ${JSON.stringify([id])}::jsonb`),
        ...o.assetIds.map((id) => sql`d.asset_ids @> ${JSON.stringify([id])}::jsonb`),
      ];
      const rows = await read((q) =>
        sql<{ item_id: string }>`select distinct d.item_id from delivery_documents d
          where d.project_id = ${o.projectId}::uuid and (${sql.join(conditions, sql` or `)})`.execute(q),
      );
      return rows.rows.map((r) => r.item_id);
    },

    apply: (batch) => db.transaction().execute((trx) => applyBatch(trx, batch)),

    async reset(projectId) {
      await db.transaction().execute(async (trx) => {
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
      const rows = await read((q) => q.selectFrom('delivery_watermarks').select('project_id').execute());
      return rows.map((r) => r.project_id);
    },
  };
}

async function applyBatch(trx: Transaction<IndexDatabase>, batch: IndexBatch): Promise<boolean> {
  const { projectId } = batch;
  await trx
    .insertInto('delivery_watermarks')
    .values({ project_id: projectId, seq: 0 })
    .onConflict((c) => c.column('project_id').doNothing())
    .execute();
  const mark = await trx
    .selectFrom('delivery_watermarks')
    .select('seq')
    .where('project_id', '=', projectId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (Number(mark.seq) >= batch.toSeq) return false;
  const timestamp = deliveryTime(batch.timestamp);
  const recordChange = async (
    channel: DeliveryChannel,
    row: { item_id: string; language: string; codename: string; type: string; collection: string },
    change: { type: 'changed' | 'deleted'; system: string },
  ) => {
    const values = {
      project_id: projectId,
      channel,
      item_id: row.item_id,
      language: row.language,
      seq: batch.toSeq,
      change_type: change.type,
      codename: row.codename,
      type: row.type,
      collection: row.collection,
      timestamp,
      system: change.system,
    };
    await trx
      .insertInto('delivery_changes')
      .values(values)
      .onConflict((c) =>
        c.columns(['project_id', 'channel', 'item_id', 'language']).doUpdateSet({
          seq: values.seq,
          change_type: values.change_type,
          codename: values.codename,
          type: values.type,
          collection: values.collection,
          timestamp: values.timestamp,
          system: values.system,
        }),
      )
      .execute();
  };
  for (const { itemId, channel, documents } of batch.items) {
    const existing = await trx
      .selectFrom('delivery_documents')
      .select(['language', 'hash', 'codename', 'type', 'collection', 'item_id'])
      .select(sql<string>`(doc->'item'->'system')::text`.as('system'))
      .where('project_id', '=', projectId)
      .where('channel', '=', channel)
      .where('item_id', '=', itemId)
      .execute();
    for (const doc of documents) {
      const body = JSON.stringify(doc);
      const hash = createHash('sha256').update(body).digest('base64');
      if (existing.find((e) => e.language === doc.language)?.hash === hash) continue;
      const system = doc.item.system;
      const row = {
        project_id: projectId,
        channel,
        item_id: itemId,
        language: doc.language,
        codename: system.codename,
        name: system.name,
        type: system.type,
        collection: system.collection,
        last_modified: system.last_modified,
        body,
        doc: body,
        arrays: JSON.stringify(arrayCodenames(doc)),
        depends_on: JSON.stringify(doc.dependsOnItemIds),
        asset_ids: JSON.stringify(doc.assetIds),
        uses_codenames: JSON.stringify(doc.usesItemCodenames),
        hash,
      };
      const { project_id: _p, channel: _c, item_id: _i, language: _l, ...changes } = row;
      await trx
        .insertInto('delivery_documents')
        .values(row)
        .onConflict((c) => c.columns(['project_id', 'channel', 'item_id', 'language']).doUpdateSet(changes))
        .execute();
      await recordChange(channel, row, { type: 'changed', system: JSON.stringify(system) });
    }
    for (const gone of existing.filter((e) => !documents.some((d) => d.language === e.language))) {
      await trx
        .deleteFrom('delivery_documents')
        .where('project_id', '=', projectId)
        .where('channel', '=', channel)
        .where('item_id', '=', itemId)
        .where('language', '=', gone.language)
        .execute();
      await recordChange(channel, gone, { type: 'deleted', system: gone.system });
    }
  }
  if (batch.model) {
    await recordModelChanges(trx, { batch, timestamp });
    const values = {
      project_id: projectId,
      types: JSON.stringify(batch.model.types),
      taxonomies: JSON.stringify(batch.model.taxonomies),
      languages: JSON.stringify(batch.model.languages),
    };
    await trx
      .insertInto('delivery_models')
      .values(values)
      .onConflict((c) =>
        c.column('project_id').doUpdateSet({
          types: values.types,
          taxonomies: values.taxonomies,
          languages: values.languages,
        }),
      )
      .execute();
  }
  await trx.updateTable('delivery_watermarks').set({ seq: batch.toSeq }).where('project_id', '=', projectId).execute();
  return true;
}
