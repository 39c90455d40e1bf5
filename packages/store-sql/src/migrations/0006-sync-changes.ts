import { sql, type Kysely } from 'kysely';

/**
 * What the Sync API v2 reports beyond 0005's change feed: the system object of a variant's last
 * document on each item change (so a deletion still shows the item's name, last_modified and
 * workflow), and a per-channel feed of model changes (types, taxonomies, languages), keeping the
 * last change of each object.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The `system` object of the variant's last document, as JSON text; null for rows written before.
  await db.schema.alterTable('delivery_changes').addColumn('system', 'text').execute();

  await db.schema
    .createTable('delivery_model_changes')
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    // 'type' | 'taxonomy' | 'language'
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('object_id', 'uuid', (c) => c.notNull())
    .addColumn('seq', 'int8', (c) => c.notNull())
    .addColumn('change_type', 'text', (c) => c.notNull())
    // The object's Sync `data.system` as JSON text (its last known state for a deletion).
    .addColumn('system', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('delivery_model_changes_pk', ['project_id', 'channel', 'kind', 'object_id'])
    .execute();
  await sql`create index delivery_model_changes_seq on delivery_model_changes (project_id, channel, seq)`.execute(db);
}
