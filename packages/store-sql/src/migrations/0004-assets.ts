import { sql, type Kysely } from 'kysely';

/**
 * Tables of binary files, assets and asset folders. A binary file is the record of one upload
 * (its bytes live in the blob store); an asset points at exactly one file and a file carries at
 * most one asset (unique `file_id`). The folder tree of a project is one JSON document.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('binary_files')
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'int8', (c) => c.notNull())
    .addColumn('image_width', 'int4')
    .addColumn('image_height', 'int4')
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('binary_files_pk', ['project_id', 'id'])
    .execute();

  await db.schema
    .createTable('assets')
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('id', 'uuid', (c) => c.notNull())
    .addColumn('codename', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('file_id', 'uuid', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('folder_id', 'uuid')
    .addColumn('collection_id', 'uuid')
    .addColumn('descriptions', 'jsonb', (c) => c.notNull())
    .addColumn('elements', 'jsonb', (c) => c.notNull())
    .addColumn('position', 'int8', (c) => c.notNull().generatedAlwaysAsIdentity())
    .addColumn('last_modified', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('assets_pk', ['project_id', 'id'])
    .addUniqueConstraint('assets_codename', ['project_id', 'codename'])
    .addUniqueConstraint('assets_file', ['project_id', 'file_id'])
    .addForeignKeyConstraint('assets_file_fk', ['project_id', 'file_id'], 'binary_files', ['project_id', 'id'])
    .execute();
  await sql`create unique index assets_external_id on assets (project_id, external_id)
    where external_id is not null`.execute(db);

  await db.schema
    .createTable('asset_folder_trees')
    .addColumn('project_id', 'uuid', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('folders', 'jsonb', (c) => c.notNull())
    .addColumn('last_modified', 'timestamptz', (c) => c.notNull())
    .execute();
}
