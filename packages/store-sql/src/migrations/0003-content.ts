import { sql, type Kysely } from 'kysely';

/**
 * Content items, their language variants (the latest version, and the published version kept
 * apart while a newer version is edited), and scheduled publish / unpublish jobs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('content_items')
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('codename', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('type_id', 'uuid', (c) => c.notNull())
    .addColumn('collection_id', 'uuid', (c) => c.notNull())
    .addColumn('sitemap_locations', 'jsonb', (c) => c.notNull())
    .addColumn('position', 'int8', (c) => c.notNull().generatedAlwaysAsIdentity())
    .addColumn('last_modified', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('content_items_pk', ['project_id', 'id'])
    .addUniqueConstraint('content_items_codename', ['project_id', 'codename'])
    .execute();
  await sql`create unique index content_items_external_id on content_items (project_id, external_id)
    where external_id is not null`.execute(db);

  await db.schema
    .createTable('content_variants')
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('item_id', 'uuid', (c) => c.notNull())
    .addColumn('language_id', 'uuid', (c) => c.notNull())
    .addColumn('type_id', 'uuid', (c) => c.notNull())
    .addColumn('workflow_id', 'uuid', (c) => c.notNull())
    .addColumn('step_id', 'uuid', (c) => c.notNull())
    .addColumn('position', 'int8', (c) => c.notNull().generatedAlwaysAsIdentity())
    .addColumn('last_modified', 'timestamptz', (c) => c.notNull())
    // The latest version: elements, schedule, due date, contributors, note.
    .addColumn('body', 'jsonb', (c) => c.notNull())
    // The published version while one exists, also when a newer version is being edited.
    .addColumn('published', 'jsonb')
    .addPrimaryKeyConstraint('content_variants_pk', ['project_id', 'item_id', 'language_id'])
    .addForeignKeyConstraint(
      'content_variants_item',
      ['project_id', 'item_id'],
      'content_items',
      ['project_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('content_variants_type')
    .on('content_variants')
    .columns(['project_id', 'type_id'])
    .execute();

  await db.schema
    .createTable('scheduled_jobs')
    // No foreign key to the variant: a runner holding a claimed job must never block (or deadlock
    // with) a variant delete. A job whose variant is gone or no longer scheduled is dropped unapplied.
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('item_id', 'uuid', (c) => c.notNull())
    .addColumn('language_id', 'uuid', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('publish', 'unpublish')`))
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scheduled_jobs_due').on('scheduled_jobs').column('due_at').execute();
  await db.schema
    .createIndex('scheduled_jobs_variant_idx')
    .on('scheduled_jobs')
    .columns(['project_id', 'item_id', 'language_id'])
    .execute();
}
