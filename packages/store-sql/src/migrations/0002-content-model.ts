import { sql, type Kysely } from 'kysely';

/**
 * Content model objects (languages, types, snippets, taxonomies, collections, workflows, spaces)
 * as JSON documents, one row per object, the Management API rate-limit counters, and whether an
 * environment is the production one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('is_production', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();

  await db.schema
    .createTable('model_objects')
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('codename', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('position', 'int8', (c) => c.notNull().generatedAlwaysAsIdentity())
    .addColumn('body', 'jsonb', (c) => c.notNull())
    .addColumn('last_modified', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('model_objects_pk', ['project_id', 'kind', 'id'])
    .addUniqueConstraint('model_objects_codename', ['project_id', 'kind', 'codename'])
    .execute();
  await sql`create unique index model_objects_external_id on model_objects (project_id, kind, external_id)
    where external_id is not null`.execute(db);

  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('key_id', 'uuid', (c) => c.notNull())
    .addColumn('window_ms', 'int8', (c) => c.notNull())
    .addColumn('window_start', 'int8', (c) => c.notNull())
    .addColumn('hits', 'int4', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_hits_pk', ['key_id', 'window_ms', 'window_start'])
    .execute();
}
