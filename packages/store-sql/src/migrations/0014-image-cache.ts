import { sql, type Kysely } from 'kysely';

/**
 * The transformed-image cache's ledger (issue 27, finding 5): one row per transformed image
 * stored in the blob store, with its size and when it was last served, so each project's cache
 * is held under a bound by evicting the least recently used images. Rows go with their project.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('image_cache_entries')
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('cache_key', 'text', (c) => c.notNull())
    .addColumn('file_id', 'uuid', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('image_cache_entries_pk', ['project_id', 'cache_key'])
    .execute();
  await sql`create index image_cache_entries_lru on image_cache_entries (project_id, last_used_at)`.execute(db);
}
