import { sql, type Kysely } from 'kysely';

/**
 * The version history of language variants (issue 31): one row per saved version, written in the
 * transaction of the save. A snapshot row holds every element value; the others hold only the
 * values that changed since the version before (see `StoredVersion` in core). Versions go with
 * their variant (and so with the item and the project).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('variant_versions')
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('item_id', 'uuid', (c) => c.notNull())
    .addColumn('language_id', 'uuid', (c) => c.notNull())
    .addColumn('seq', 'int4', (c) => c.notNull())
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('base_seq', 'int4', (c) => c.notNull())
    .addColumn('is_snapshot', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('user_id', 'uuid')
    .addColumn('via', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('workflow_id', 'uuid', (c) => c.notNull())
    .addColumn('step_id', 'uuid', (c) => c.notNull())
    .addColumn('is_published', 'boolean', (c) => c.notNull())
    .addColumn('published_version_id', 'uuid')
    .addColumn('changed_elements', 'jsonb', (c) => c.notNull())
    .addColumn('elements', 'jsonb', (c) => c.notNull())
    .addColumn('meta', 'jsonb', (c) => c.notNull())
    .addColumn('restored_from', 'uuid')
    .addPrimaryKeyConstraint('variant_versions_pk', ['project_id', 'item_id', 'language_id', 'seq'])
    .addForeignKeyConstraint(
      'variant_versions_variant',
      ['project_id', 'item_id', 'language_id'],
      'content_variants',
      ['project_id', 'item_id', 'language_id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await sql`create unique index variant_versions_id on variant_versions (project_id, id)`.execute(db);
  // The retention's walk by age.
  await sql`create index variant_versions_created on variant_versions (created_at)`.execute(db);
}
