import { sql, type Kysely, type Transaction } from 'kysely';
import {
  deliveryTime,
  type DeliveryIndexLedger,
  type DeliveryItem,
  type IndexBatch,
  type IndexChange,
  type IndexChangeRow,
  type IndexedLanguage,
  type TypeLinks,
} from '@lectern/core';
import { modelChangesSince, recordModelChanges } from './index-ledger-model.ts';
import type { LedgerDatabase } from './index-ledger-schema.ts';
import type { Database } from './schema.ts';
import { notifySql } from './signals.ts';

/** The transaction a ledger commit hands to a document engine on the same database. */
export type LedgerTransaction = Transaction<LedgerDatabase>;

export type SqlIndexLedger = DeliveryIndexLedger<LedgerTransaction>;

/** Rows per multi-row statement (each column travels as one array parameter). */
const chunkSize = 5_000;

/** Records the last change of each variant per channel (the Sync API feed) at `seq`. */
async function recordChanges(
  trx: LedgerTransaction,
  options: { projectId: string; seq: number; timestamp: string; changes: readonly IndexChangeRow[] },
): Promise<void> {
  for (let i = 0; i < options.changes.length; i += chunkSize) {
    const part = options.changes.slice(i, i + chunkSize);
    const col = <T>(f: (c: IndexChangeRow) => T) => part.map(f);
    await sql`insert into delivery_changes
        (project_id, seq, timestamp, channel, item_id, language, change_type, codename, type, collection, system)
      select ${options.projectId}::uuid, ${options.seq}::int8, ${options.timestamp}::text, u.* from unnest(
        ${col((c) => c.channel)}::text[], ${col((c) => c.itemId)}::uuid[], ${col((c) => c.language)}::text[],
        ${col((c) => c.changeType)}::text[], ${col((c) => c.codename)}::text[], ${col((c) => c.type)}::text[],
        ${col((c) => c.collection)}::text[], ${col((c) => c.system)}::text[]) as u
      on conflict (project_id, channel, item_id, language) do update set
        seq = excluded.seq, timestamp = excluded.timestamp, change_type = excluded.change_type,
        codename = excluded.codename, type = excluded.type, collection = excluded.collection, system = excluded.system`.execute(
      trx,
    );
  }
}

async function clearFeeds(trx: LedgerTransaction, projectId: string): Promise<void> {
  for (const table of ['delivery_changes', 'delivery_model_changes', 'delivery_models'] as const)
    await trx.deleteFrom(table).where('project_id', '=', projectId).execute();
}

/** Records the model's changes against the stored one, then replaces it. */
async function writeModel(trx: LedgerTransaction, batch: IndexBatch, timestamp: string): Promise<void> {
  if (!batch.model) return;
  await recordModelChanges(trx, { batch, timestamp });
  const values = {
    project_id: batch.projectId,
    types: JSON.stringify(batch.model.types),
    taxonomies: JSON.stringify(batch.model.taxonomies),
    languages: JSON.stringify(batch.model.languages),
    type_links: JSON.stringify(batch.model.typeLinks ?? {}),
  };
  await trx
    .insertInto('delivery_models')
    .values(values)
    .onConflict((c) =>
      c.column('project_id').doUpdateSet({
        types: values.types,
        taxonomies: values.taxonomies,
        languages: values.languages,
        type_links: values.type_links,
      }),
    )
    .execute();
}

/**
 * The delivery index ledger on the store's database (`SqlStore.db`). Reads are single statements
 * (on PGlite, kysely gives each its one connection exclusively, so none runs inside another
 * caller's transaction); a commit is one transaction.
 */
export function createIndexLedger(options: { db: Kysely<Database> }): SqlIndexLedger {
  const db = options.db as unknown as Kysely<LedgerDatabase>;

  const readModel = async (projectId: string) =>
    (await db.selectFrom('delivery_models').selectAll().where('project_id', '=', projectId).executeTakeFirst()) ?? null;
  const modelPart = async <T>(projectId: string, part: 'types' | 'taxonomies' | 'languages'): Promise<T[]> => {
    const row = await readModel(projectId);
    return row ? (JSON.parse(row[part]) as T[]) : [];
  };

  return {
    async watermark(projectId) {
      const row = await db
        .selectFrom('delivery_watermarks')
        .select('seq')
        .where('project_id', '=', projectId)
        .executeTakeFirst();
      return row ? Number(row.seq) : 0;
    },
    hasModel: async (projectId) => (await readModel(projectId)) !== null,
    types: (projectId) => modelPart<Record<string, unknown>>(projectId, 'types'),
    taxonomies: (projectId) => modelPart<Record<string, unknown>>(projectId, 'taxonomies'),
    languages: (projectId) => modelPart<IndexedLanguage>(projectId, 'languages'),
    async typeLinks(projectId) {
      const row = await readModel(projectId);
      return row?.type_links ? (JSON.parse(row.type_links) as TypeLinks) : {};
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

    async indexedProjects() {
      const rows = await db.selectFrom('delivery_watermarks').select('project_id').execute();
      return rows.map((r) => r.project_id);
    },

    commit: ({ batch, isRebuild, write }) =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('delivery_watermarks')
          .values({ project_id: batch.projectId, seq: 0 })
          .onConflict((c) => c.column('project_id').doNothing())
          .execute();
        const mark = await trx
          .selectFrom('delivery_watermarks')
          .select('seq')
          .where('project_id', '=', batch.projectId)
          // Parts of one re-render may be written at once; the batch that moves the watermark waits for them.
          .$call((q) => (batch.isPartial ? q.forShare() : q.forUpdate()))
          .executeTakeFirstOrThrow();
        const written = await write(Number(mark.seq), trx);
        if (written === null) return null;
        if (isRebuild === true && !batch.isPartial) await clearFeeds(trx, batch.projectId);
        const timestamp = deliveryTime(batch.timestamp);
        await recordChanges(trx, { projectId: batch.projectId, seq: batch.toSeq, timestamp, changes: written.changes });
        if (batch.isPartial) return written.result;
        await writeModel(trx, batch, timestamp);
        await trx
          .updateTable('delivery_watermarks')
          .set({ seq: batch.toSeq })
          .where('project_id', '=', batch.projectId)
          .execute();
        await notifySql('indexed', `${batch.projectId}:${batch.toSeq}`).execute(trx);
        return written.result;
      }),

    async clear(projectId, alongside) {
      await db.transaction().execute(async (trx) => {
        await alongside?.(trx);
        await clearFeeds(trx, projectId);
        await trx.deleteFrom('delivery_watermarks').where('project_id', '=', projectId).execute();
      });
    },
  };
}
