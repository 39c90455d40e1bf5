import type { Kysely, Transaction } from 'kysely';
import { deliveryTime, type IndexBatch } from '@lectern/core';
import { recordChanges, recordModelChanges, type ChangeRow, type IndexDatabase } from '@lectern/index-sql';
import { notifySql } from '@lectern/store-sql';

/**
 * What stays in PostgreSQL beside the engine's documents: the watermark, the Sync change feeds and
 * the model documents (the same tables as the SQL index). They are small, need transactions and
 * ordered reads by sequence, and Delivery already reads them there; the `indexed` signal that
 * announces a new watermark goes out at their commit.
 */
type Trx = Transaction<IndexDatabase>;

/**
 * Runs `write` in a transaction holding the project's watermark row: shared for a partial part
 * (parts of one re-render run at once), exclusive otherwise. `write` gets the watermark and
 * returns the Sync changes to record, or null to write nothing.
 */
export async function withWatermark<T>(options: {
  db: Kysely<IndexDatabase>;
  batch: IndexBatch;
  write: (watermark: number) => Promise<{ changes: ChangeRow[]; result: T } | null>;
  /** A rebuild's last part: the feeds and model start afresh, the watermark may stay where it is. */
  isRebuild?: boolean;
}): Promise<T | null> {
  const { db, batch } = options;
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('delivery_watermarks')
      .values({ project_id: batch.projectId, seq: 0 })
      .onConflict((c) => c.column('project_id').doNothing())
      .execute();
    const mark = await trx
      .selectFrom('delivery_watermarks')
      .select('seq')
      .where('project_id', '=', batch.projectId)
      .$call((q) => (batch.isPartial ? q.forShare() : q.forUpdate()))
      .executeTakeFirstOrThrow();
    const watermark = Number(mark.seq);
    const written = await options.write(watermark);
    if (written === null) return null;
    if (options.isRebuild === true && !batch.isPartial) await clearFeeds(trx, batch.projectId);
    await recordChanges(trx, {
      projectId: batch.projectId,
      seq: batch.toSeq,
      timestamp: deliveryTime(batch.timestamp),
      changes: written.changes,
    });
    if (batch.isPartial) return written.result;
    await writeModel(trx, batch);
    await trx
      .updateTable('delivery_watermarks')
      .set({ seq: batch.toSeq })
      .where('project_id', '=', batch.projectId)
      .execute();
    await notifySql('indexed', `${batch.projectId}:${batch.toSeq}`).execute(trx);
    return written.result;
  });
}

async function clearFeeds(trx: Trx, projectId: string): Promise<void> {
  for (const table of ['delivery_changes', 'delivery_model_changes', 'delivery_models'] as const)
    await trx.deleteFrom(table).where('project_id', '=', projectId).execute();
}

async function writeModel(trx: Trx, batch: IndexBatch): Promise<void> {
  if (!batch.model) return;
  await recordModelChanges(trx, { batch, timestamp: deliveryTime(batch.timestamp) });
  const values = {
    project_id: batch.projectId,
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

/** Removes the project's watermark, feeds and model (a reset without a rebuild). */
export async function clearMetadata(db: Kysely<IndexDatabase>, projectId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await clearFeeds(trx, projectId);
    await trx.deleteFrom('delivery_watermarks').where('project_id', '=', projectId).execute();
  });
}
