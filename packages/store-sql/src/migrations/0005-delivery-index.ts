import { sql, type Kysely } from 'kysely';

/**
 * Tables of the SQL delivery index (packages/index-sql): one document per (project, channel, item,
 * language) with the columns queries need, the model documents, a watermark per project, and the
 * Sync change feed (the last change of each variant per channel).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('delivery_documents')
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('item_id', 'uuid', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('codename', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('last_modified', 'text', (c) => c.notNull())
    // The IndexedVariant as JSON text (key order kept) and as jsonb (filters and ordering).
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('doc', 'jsonb', (c) => c.notNull())
    // Per array-valued element: the codenames `contains`/`any`/`all` compare.
    .addColumn('arrays', 'jsonb', (c) => c.notNull())
    .addColumn('depends_on', 'jsonb', (c) => c.notNull())
    .addColumn('asset_ids', 'jsonb', (c) => c.notNull())
    .addColumn('uses_codenames', 'jsonb', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('delivery_documents_pk', ['project_id', 'channel', 'item_id', 'language'])
    .execute();
  await sql`create index delivery_documents_codename on delivery_documents (project_id, channel, codename, language)`.execute(
    db,
  );
  await sql`create index delivery_documents_type on delivery_documents (project_id, channel, type)`.execute(db);
  await sql`create index delivery_documents_depends on delivery_documents using gin (depends_on jsonb_path_ops)`.execute(
    db,
  );
  await sql`create index delivery_documents_assets on delivery_documents using gin (asset_ids jsonb_path_ops)`.execute(
    db,
  );

  await db.schema
    .createTable('delivery_models')
    .addColumn('project_id', 'uuid', (c) => c.primaryKey())
    .addColumn('types', 'text', (c) => c.notNull())
    .addColumn('taxonomies', 'text', (c) => c.notNull())
    .addColumn('languages', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('delivery_watermarks')
    .addColumn('project_id', 'uuid', (c) => c.primaryKey())
    .addColumn('seq', 'int8', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('delivery_changes')
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('item_id', 'uuid', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('seq', 'int8', (c) => c.notNull())
    .addColumn('change_type', 'text', (c) => c.notNull())
    .addColumn('codename', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('delivery_changes_pk', ['project_id', 'channel', 'item_id', 'language'])
    .execute();
  await sql`create index delivery_changes_seq on delivery_changes (project_id, channel, seq)`.execute(db);
}
